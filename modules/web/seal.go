package web

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// sealVersion prefixes every sealed value, so a later key or algorithm can be told apart.
const sealVersion = "v1."

// Sealer encrypts secrets at rest (payout details, panels' provider secrets) with AES-256-GCM.
// Each value is bound to where it belongs (a member and kind, a redemption, a panel's provider)
// as additional data, so a row copied to another owner does not open.
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer takes a 32-byte key (Kit.Secret of a purpose).
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("sealing key must be 32 bytes (AES-256), got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("sealing key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("sealing key: %w", err)
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts plaintext with a fresh random nonce: v1.<base64url(nonce || ciphertext)>.
func (s *Sealer) Seal(plaintext []byte, boundTo string) (string, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal: nonce: %w", err)
	}
	out := s.aead.Seal(nonce, nonce, plaintext, []byte(boundTo))
	return sealVersion + base64.RawURLEncoding.EncodeToString(out), nil
}

// ErrSealed is a sealed value that does not open: another key, another owner, or tampered.
var ErrSealed = errors.New("sealed value does not open")

// Open returns the plaintext of a value sealed for boundTo.
func (s *Sealer) Open(sealed, boundTo string) ([]byte, error) {
	body, ok := strings.CutPrefix(sealed, sealVersion)
	if !ok {
		return nil, fmt.Errorf("unknown seal version: %w", ErrSealed)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return nil, fmt.Errorf("malformed sealed value: %w", ErrSealed)
	}
	nonce, ct := raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():]
	plain, err := s.aead.Open(nil, nonce, ct, []byte(boundTo))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", boundTo, ErrSealed)
	}
	return plain, nil
}

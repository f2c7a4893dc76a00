package redemptions

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

// sealer encrypts payout details at rest with AES-256-GCM. Each value is bound to where it
// belongs (the member and kind, or the redemption) as additional data, so a row copied to
// another member or redemption does not open.
type sealer struct {
	aead cipher.AEAD
}

func newSealer(key []byte) (*sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("payout key must be 32 bytes (AES-256), got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("payout key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("payout key: %w", err)
	}
	return &sealer{aead: aead}, nil
}

// seal encrypts plaintext with a fresh random nonce: v1.<base64url(nonce || ciphertext)>.
func (s *sealer) seal(plaintext []byte, boundTo string) (string, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal: nonce: %w", err)
	}
	out := s.aead.Seal(nonce, nonce, plaintext, []byte(boundTo))
	return sealVersion + base64.RawURLEncoding.EncodeToString(out), nil
}

// errSealed is a sealed value that does not open: another key, another owner, or tampered.
var errSealed = errors.New("sealed value does not open")

func (s *sealer) open(sealed, boundTo string) ([]byte, error) {
	body, ok := strings.CutPrefix(sealed, sealVersion)
	if !ok {
		return nil, fmt.Errorf("unknown seal version: %w", errSealed)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return nil, fmt.Errorf("malformed sealed value: %w", errSealed)
	}
	nonce, ct := raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():]
	plain, err := s.aead.Open(nil, nonce, ct, []byte(boundTo))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", boundTo, errSealed)
	}
	return plain, nil
}

// detailsBinding and redemptionBinding are what sealed values are bound to.
func detailsBinding(participantID string, kind Kind) string {
	return "payout-details:" + participantID + ":" + string(kind)
}

func redemptionBinding(redemptionID string) string { return "redemption:" + redemptionID }

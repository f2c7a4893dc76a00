package profile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"regexp"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// maxPictures is how many pictures a member keeps; the newest upload is the one shown.
const maxPictures = 5

// maxPicturesPerMinute bounds a member's uploads: each is decoded and drawn anew, the dearest
// thing a member can ask of the server.
const maxPicturesPerMinute = 10

// PicturePath is where the member's own pictures are served; the key is the SHA-256 of the
// stored image, so what a URL shows never changes and browsers keep it for a year.
const PicturePath = "/media/profile-pics/"

var pictureKeyRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

func pictureURL(key string) string { return PicturePath + key }

// storageName is where a panel's picture is stored: pictures of one panel never mix with
// another's, even when two members upload the same image.
func storageName(panelID, key string) string { return panelID + "/" + key }

// UploadPicture checks, re-encodes and stores an upload as the member's main picture.
func (s *Service) UploadPicture(ctx context.Context, panel *web.Panel, m *web.Member, data []byte) (*Picture, error) {
	if s.storage == nil {
		return nil, errors.New("no storage for uploads")
	}
	n, err := s.limiter.Hit(ctx, "picture:"+m.ParticipantID, time.Minute)
	if err != nil {
		return nil, err
	}
	if n > maxPicturesPerMinute {
		return nil, pictureRefused(fiber.StatusTooManyRequests, "error.picture_rate_limited", "picture_rate_limited", map[string]any{"Max": maxPicturesPerMinute})
	}
	img, err := processPicture(ctx, data)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(img.Data)
	key := hex.EncodeToString(sum[:])
	// Stored before the row: a row never names a file that is not there. A failure after this
	// leaves a file no row names, which the next upload of the same image reuses.
	if err := s.storage.Put(ctx, storageName(panel.ID, key), img.Data); err != nil {
		return nil, err
	}
	pic := &Picture{
		ParticipantID: m.ParticipantID, Key: key, PanelID: panel.ID, ContentType: img.ContentType,
		Width: img.Width, Height: img.Height, Bytes: len(img.Data), CreatedAt: s.now().UTC(),
	}
	err = s.store.AddPicture(ctx, pic, maxPictures)
	if errors.Is(err, ErrTooManyPictures) {
		s.dropUnused(ctx, panel.ID, key)
		return nil, pictureRefused(fiber.StatusConflict, "error.picture_too_many", "picture_too_many", map[string]any{"Max": maxPictures})
	}
	if err != nil {
		return nil, err
	}
	return pic, nil
}

// SelectPicture makes one of the member's pictures the one shown.
func (s *Service) SelectPicture(ctx context.Context, m *web.Member, key string) error {
	if !pictureKeyRE.MatchString(key) {
		return web.NotFound()
	}
	err := s.store.SetMainPicture(ctx, m.ParticipantID, key)
	if errors.Is(err, ErrNotFound) {
		return web.NotFound()
	}
	return err
}

// DeletePicture removes one of the member's pictures, and its file once no member of the
// panel shows that image any more.
func (s *Service) DeletePicture(ctx context.Context, panel *web.Panel, m *web.Member, key string) error {
	if !pictureKeyRE.MatchString(key) {
		return web.NotFound()
	}
	stillUsed, err := s.store.DeletePicture(ctx, panel.ID, m.ParticipantID, key)
	if errors.Is(err, ErrNotFound) {
		return web.NotFound()
	}
	if err != nil {
		return err
	}
	if !stillUsed {
		s.dropUnused(ctx, panel.ID, key)
	}
	return nil
}

// dropUnused deletes a stored image no member of the panel has. A failure is only logged: the
// file is unreachable without a row, and the member's action already succeeded.
func (s *Service) dropUnused(ctx context.Context, panelID, key string) {
	if used, err := s.store.PictureInUse(ctx, panelID, key); err != nil || used {
		return
	}
	if err := s.storage.Delete(ctx, storageName(panelID, key)); err != nil {
		s.log.Warn("delete unused picture", "panel", panelID, "key", key, "err", err)
	}
}

// profilePics lists the member's pictures as the profile shows them (main first).
func (s *Service) profilePics(ctx context.Context, participantID string) ([]accounts.ProfilePic, error) {
	pics, err := s.store.Pictures(ctx, participantID)
	if err != nil {
		return nil, err
	}
	out := make([]accounts.ProfilePic, 0, len(pics))
	for _, p := range pics {
		out = append(out, accounts.ProfilePic{Key: p.Key, URL: pictureURL(p.Key)})
	}
	return out, nil
}

// uploadedFile reads the multipart upload's "file" part, at most MaxPictureBytes of it.
func uploadedFile(c fiber.Ctx) ([]byte, error) {
	fh, err := c.FormFile("file")
	if err != nil {
		return nil, pictureRefused(fiber.StatusBadRequest, "error.picture_required", "picture_required", nil)
	}
	if fh.Size > MaxPictureBytes {
		return nil, errPictureTooLarge()
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPictureBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxPictureBytes {
		return nil, errPictureTooLarge()
	}
	return data, nil
}

// POST /ah/api/v1/user/profile/pic (multipart, the image in "file"): the profile, with the
// new picture first.
func (m *Module) apiUploadPicture(c fiber.Ctx) error {
	data, err := uploadedFile(c)
	if err != nil {
		return err
	}
	if _, err := m.svc.UploadPicture(c.Context(), web.PanelOf(c), web.MemberOf(c), data); err != nil {
		return err
	}
	c.Status(fiber.StatusCreated)
	return m.apiProfile(c)
}

// POST /ah/api/v1/user/profile/pic/{key}: show this picture.
func (m *Module) apiSelectPicture(c fiber.Ctx) error {
	if err := m.svc.SelectPicture(c.Context(), web.MemberOf(c), c.Params("key")); err != nil {
		return err
	}
	return m.apiProfile(c)
}

// DELETE /ah/api/v1/user/profile/pic/{key}
func (m *Module) apiDeletePicture(c fiber.Ctx) error {
	if err := m.svc.DeletePicture(c.Context(), web.PanelOf(c), web.MemberOf(c), c.Params("key")); err != nil {
		return err
	}
	return m.apiProfile(c)
}

// GET /media/profile-pics/{key}: the member's own picture. Only its owner sees it (the top bar
// and settings): anyone else, another panel's member included, gets the same 404. The name is
// the content's hash, so the answer is cached for a year; privately, since it is personal.
func (m *Module) servePicture(c fiber.Ctx) error {
	member, key := web.MemberOf(c), c.Params("key")
	if member == nil || !pictureKeyRE.MatchString(key) {
		return web.NotFound()
	}
	pic, err := m.svc.store.Picture(c.Context(), member.ParticipantID, key)
	if errors.Is(err, ErrNotFound) {
		return web.NotFound()
	}
	if err != nil {
		return err
	}
	etag := `"` + key + `"`
	c.Set(fiber.HeaderCacheControl, "private, max-age=31536000, immutable")
	c.Set(fiber.HeaderETag, etag)
	if c.Get(fiber.HeaderIfNoneMatch) == etag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	data, err := m.svc.storage.Get(c.Context(), storageName(pic.PanelID, key))
	if errors.Is(err, ErrNotFound) {
		return web.NotFound()
	}
	if err != nil {
		return err
	}
	web.NoCompression(c)
	c.Set(fiber.HeaderContentType, pic.ContentType)
	return c.Send(data)
}

// POST /settings/pictures: upload from the settings page.
func (m *Module) settingsUploadPicture(c fiber.Ctx) error {
	data, err := uploadedFile(c)
	if err == nil {
		_, err = m.svc.UploadPicture(c.Context(), web.PanelOf(c), web.MemberOf(c), data)
	}
	if err != nil {
		return m.settingsFailed(c, err, sectionPictures, nil)
	}
	m.kit.FlashNext(c, "success", "flash.picture_uploaded")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#pictures")
}

// POST /settings/pictures/:key/select and /settings/pictures/:key/delete
func (m *Module) settingsSelectPicture(c fiber.Ctx) error {
	if err := m.svc.SelectPicture(c.Context(), web.MemberOf(c), c.Params("key")); err != nil {
		return err
	}
	m.kit.FlashNext(c, "success", "flash.picture_selected")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#pictures")
}

func (m *Module) settingsDeletePicture(c fiber.Ctx) error {
	if err := m.svc.DeletePicture(c.Context(), web.PanelOf(c), web.MemberOf(c), c.Params("key")); err != nil {
		return err
	}
	m.kit.FlashNext(c, "success", "flash.picture_deleted")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#pictures")
}

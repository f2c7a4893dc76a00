package competitions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// EntryKey is the ledger's natural key of a member's entry into a competition: one record per
// member.
func EntryKey(competitionID string) string { return "competition-entry:" + competitionID }

// PrizeKey is the ledger's natural key of a winner's prize: one per member and competition.
func PrizeKey(competitionID string) string { return "competition-prize:" + competitionID }

// Refusals a member hears, in the spec's error shape (the survey screen shows their message).
func errNotCompleted() *web.Error {
	return web.Fail(fiber.StatusForbidden, "error.competition_not_completed", nil).WithCode("competition_not_completed")
}

func errClosed() *web.Error {
	return web.Fail(fiber.StatusConflict, "error.competition_closed", nil).WithCode("competition_closed")
}

func errAlreadyEntered() *web.Error {
	return web.Fail(fiber.StatusConflict, "error.competition_already_entered", nil).WithCode("competition_already_entered")
}

// Decision is "entered", "rejected" or "" (not decided) for the member and the campaign's
// competition.
func (m *Module) Decision(ctx context.Context, panel *web.Panel, participantID, campaignID string) (string, error) {
	e, err := m.store.entry(m.store.db.WithContext(ctx), campaigns.CompetitionID(campaignID), participantID)
	if err != nil || e == nil || e.PanelID != panel.ID {
		return "", err
	}
	return e.Decision, nil
}

// Enter is EnterCompetition for the survey screen, which needs no transaction id.
func (m *Module) Enter(ctx context.Context, panel *web.Panel, participantID, campaignID, competitionID, lang string) error {
	_, err := m.EnterCompetition(ctx, panel, participantID, campaignID, competitionID, lang)
	return err
}

// EnterCompetition enters the member into the draw of the campaign's competition and returns
// the ledger record of the entry. The campaign must have a competition in the panel and
// competitionID must be its id (else not found); the member must have completed the campaign
// (403 competition_not_completed); the competition must still be open, neither drawn nor past
// its draw date (409 competition_closed). Entering again returns the first entry's record,
// closed or not; entering after declining is allowed. The entry and its record are written
// in one transaction; every refusal writes nothing.
func (m *Module) EnterCompetition(ctx context.Context, panel *web.Panel, participantID, campaignID, competitionID, lang string) (string, error) {
	info, err := m.invitation(ctx, panel, participantID, campaignID, &competitionID)
	if err != nil {
		return "", err
	}
	prior, err := m.store.entry(m.store.db.WithContext(ctx), info.ID, participantID)
	if err != nil {
		return "", err
	}
	if prior != nil && prior.Decision == DecisionEntered && prior.TransactionID != nil {
		return *prior.TransactionID, nil
	}
	now := m.now().UTC().Truncate(timeUnit)
	if err := m.open(ctx, info, now); err != nil {
		return "", err
	}
	title := m.title(lang, "competitions.entry_title", "Entered the draw: ", info.Prizes.In(lang, info.Prize))
	var transactionID string
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		transactionID = ""
		written, err := m.store.decide(tx, Entry{
			CompetitionID: info.ID, ParticipantID: participantID, CampaignID: info.CampaignID, PanelID: panel.ID,
			Decision: DecisionEntered, CreatedAt: now, UpdatedAt: now,
		})
		if err != nil {
			return err
		}
		if !written {
			// Entered already (another request may have committed since the look-up above).
			e, err := m.store.entry(tx, info.ID, participantID)
			if err != nil {
				return err
			}
			if e != nil && e.TransactionID != nil {
				transactionID = *e.TransactionID
			}
			return nil
		}
		// After the entry is written, so that a draw under way has finished (it locks the
		// entries) and is seen here.
		if err := m.notDrawn(tx, info.ID); err != nil {
			return err
		}
		entry, _, err := m.ledger.RecordTx(tx, wallet.Movement{
			Panel: panel, ParticipantID: participantID, Currency: panel.CurrencyCode, Origin: wallet.OriginCampaign,
			Key: EntryKey(info.ID), CampaignID: info.CampaignID, Competition: true, Title: title,
		})
		if err != nil {
			return fmt.Errorf("record entry of %s in competition %s: %w", participantID, info.ID, err)
		}
		if err := m.store.linkEntry(tx, info.ID, participantID, entry.ID); err != nil {
			return err
		}
		transactionID = entry.ID
		return nil
	})
	if err != nil {
		return "", wallet.WebError(err)
	}
	return transactionID, nil
}

// Reject records that the member declines the draw of the campaign's competition. The checks
// are Enter's; a member who entered cannot take it back (409 competition_already_entered).
// Declining again changes nothing.
func (m *Module) Reject(ctx context.Context, panel *web.Panel, participantID, campaignID string) error {
	info, err := m.invitation(ctx, panel, participantID, campaignID, nil)
	if err != nil {
		return err
	}
	prior, err := m.store.entry(m.store.db.WithContext(ctx), info.ID, participantID)
	if err != nil {
		return err
	}
	switch {
	case prior != nil && prior.Decision == DecisionEntered:
		return errAlreadyEntered()
	case prior != nil:
		return nil // declined already
	}
	now := m.now().UTC().Truncate(timeUnit)
	if err := m.open(ctx, info, now); err != nil {
		return err
	}
	return m.inTx(ctx, func(tx *gorm.DB) error {
		written, err := m.store.decide(tx, Entry{
			CompetitionID: info.ID, ParticipantID: participantID, CampaignID: info.CampaignID, PanelID: panel.ID,
			Decision: DecisionRejected, CreatedAt: now, UpdatedAt: now,
		})
		if err != nil {
			return err
		}
		if !written {
			return errAlreadyEntered()
		}
		return m.notDrawn(tx, info.ID)
	})
}

// invitation checks that the member was invited to the campaign's competition: the campaign
// has a competition in the panel, named competitionID when given (else not found), and the
// member completed the campaign (else 403).
func (m *Module) invitation(ctx context.Context, panel *web.Panel, participantID, campaignID string, competitionID *string) (*campaigns.CompetitionInfo, error) {
	info, err := m.campaigns.CompetitionOf(ctx, panel, campaignID)
	if errors.Is(err, web.ErrNotFound) {
		return nil, web.NotFound()
	}
	if err != nil {
		return nil, err
	}
	if info.PanelID != panel.ID {
		return nil, web.NotFound()
	}
	if competitionID != nil && !sameID(*competitionID, info.ID) {
		return nil, web.NotFound()
	}
	done, err := m.completions.Completed(ctx, panel, participantID, campaignID)
	if err != nil {
		return nil, err
	}
	if !done {
		return nil, errNotCompleted()
	}
	return info, nil
}

// sameID compares uuids whatever their case.
func sameID(given, id string) bool {
	u, err := uuid.Parse(strings.TrimSpace(given))
	return err == nil && u.String() == id
}

// open refuses a decision on a competition that is closed: past its draw date, or drawn.
func (m *Module) open(ctx context.Context, info *campaigns.CompetitionInfo, now time.Time) error {
	if info.DrawAt != nil && !now.Before(*info.DrawAt) {
		return errClosed()
	}
	return m.notDrawn(m.store.db.WithContext(ctx), info.ID)
}

// Drawn tells whether the competition has been drawn: the thank-you page then says the draw
// has closed, even when an operator drew before the draw date.
func (m *Module) Drawn(ctx context.Context, competitionID string) (bool, error) {
	d, err := m.store.draw(m.store.db.WithContext(ctx), competitionID)
	return d != nil, err
}

func (m *Module) notDrawn(db *gorm.DB, competitionID string) error {
	d, err := m.store.draw(db, competitionID)
	if err != nil {
		return err
	}
	if d != nil {
		return errClosed()
	}
	return nil
}

// title is what the member reads in their transactions, in lang: "Entered the draw: a $50
// gift card". The ledger keeps it as written, like a completion's title.
func (m *Module) title(lang, id, english, prize string) string {
	if m.kit == nil || m.kit.Locales == nil {
		return english + prize
	}
	return m.kit.Locales.Translate(lang, id, map[string]any{"Prize": prize}, nil)
}

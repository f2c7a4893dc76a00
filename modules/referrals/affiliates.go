package referrals

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Affiliates are partners' codes: a member who joins with one (/join?affiliate=CODE), or
// accepts one as a member (affiliates/invite/{code}/accept, the /affiliates/CODE page), is
// attributed to the partner once and for good, and paid its sign-up bonus once.

// codeRE is an affiliate code as operators write it: 3-32 letters, digits, dashes and
// underscores, compared without regard to case.
var codeRE = regexp.MustCompile(`^[A-Za-z0-9_-]{3,32}$`)

// maxPartnerLength bounds a partner's name.
const maxPartnerLength = 100

// AffiliateKey is the ledger key of a partner's sign-up bonus: one per member.
func AffiliateKey(affiliateID string) string { return "affiliate:" + affiliateID }

// NewAffiliate is what an operator gives to create a partner code.
type NewAffiliate struct {
	Code     string
	Partner  string
	Bonus    string // major units of the panel's currency; "" for none
	Operator string
}

// CreateAffiliate creates a partner code of the panel; every problem is named at once.
func (s *Service) CreateAffiliate(ctx context.Context, panel *web.Panel, in NewAffiliate) (*Affiliate, error) {
	var errs []error
	code := strings.ToUpper(strings.TrimSpace(in.Code))
	if !codeRE.MatchString(code) {
		errs = append(errs, fmt.Errorf("--code: %q must be 3-32 letters, digits, dashes or underscores", in.Code))
	}
	partner := strings.TrimSpace(in.Partner)
	if partner == "" || utf8.RuneCountInString(partner) > maxPartnerLength || strings.ContainsAny(partner, "\r\n") {
		errs = append(errs, fmt.Errorf("--partner: required, one line of at most %d characters", maxPartnerLength))
	}
	var bonus int64
	if b := strings.TrimSpace(in.Bonus); b != "" {
		minor, err := web.ParseMoney(b, panel.CurrencyCode)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("--bonus: %q is not an amount of %s (%v)", b, panel.CurrencyCode, err))
		case minor < 0:
			errs = append(errs, fmt.Errorf("--bonus: %q is negative", b))
		default:
			bonus = minor
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	a := &Affiliate{
		ID: uuid.NewString(), PanelID: panel.ID, Code: code, Partner: partner, BonusMinor: bonus,
		CurrencyCode: strings.ToUpper(panel.CurrencyCode), Operator: in.Operator, CreatedAt: s.now().UTC(),
	}
	if err := s.store.CreateAffiliate(ctx, a); err != nil {
		if errors.Is(err, ErrCodeTaken) {
			return nil, fmt.Errorf("--code: panel %s already has the code %s", panel.Key, code)
		}
		return nil, err
	}
	return a, nil
}

// Affiliates lists a panel's partner codes with the members each brought.
func (s *Service) Affiliates(ctx context.Context, panel *web.Panel) ([]AffiliateListing, error) {
	return s.store.Affiliates(ctx, panel.ID)
}

// affiliate finds a panel's partner code, whatever its case (web.ErrNotFound for none).
func (s *Service) affiliate(ctx context.Context, panel *web.Panel, code string) (*Affiliate, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	if !codeRE.MatchString(code) {
		return nil, web.ErrNotFound
	}
	return s.store.AffiliateByCode(ctx, panel.ID, code)
}

// AffiliateInvite is a partner code as a member sees it.
type AffiliateInvite struct {
	Affiliate
	// Accepted: the member came through this partner; Elsewhere: through another one (this code
	// can no longer be accepted).
	Accepted, Elsewhere bool
	TransactionID       *string // the bonus's ledger entry, once accepted
}

// DescribeAffiliate describes a partner code to a member (404 when the panel has none such).
func (s *Service) DescribeAffiliate(ctx context.Context, panel *web.Panel, participantID, code string) (*AffiliateInvite, error) {
	a, err := s.affiliate(ctx, panel, code)
	if err != nil {
		return nil, err
	}
	am, err := s.store.Attribution(ctx, participantID)
	if err != nil {
		return nil, err
	}
	return describe(a, am), nil
}

func describe(a *Affiliate, am *AffiliateMember) *AffiliateInvite {
	out := &AffiliateInvite{Affiliate: *a}
	if am != nil {
		out.Accepted, out.Elsewhere = am.AffiliateID == a.ID, am.AffiliateID != a.ID
		if out.Accepted {
			out.TransactionID = am.TransactionID
		}
	}
	return out
}

// AcceptAffiliate attributes a member to a partner and pays its bonus, once: accepting the same
// code again answers as the first time did; another code, once attributed, is a 409.
func (s *Service) AcceptAffiliate(ctx context.Context, panel *web.Panel, participantID, code, lang string) (*AffiliateInvite, error) {
	return s.attribute(ctx, panel, participantID, code, ViaAccept, lang)
}

// attribute records the partner a member came through and pays the bonus in one transaction.
func (s *Service) attribute(ctx context.Context, panel *web.Panel, participantID, code, via, lang string) (*AffiliateInvite, error) {
	a, err := s.affiliate(ctx, panel, code)
	if err != nil {
		return nil, err
	}
	if a.BonusMinor > 0 && !strings.EqualFold(a.CurrencyCode, panel.CurrencyCode) {
		return nil, fmt.Errorf("affiliate %s: bonus in %s, panel in %s", a.Code, a.CurrencyCode, panel.CurrencyCode)
	}
	title := s.translate(web.ResolveLanguage(panel, lang, ""), "referrals.affiliate_ledger_title", map[string]any{"Partner": a.Partner})
	var out *AffiliateInvite
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		am, err := attributionIn(tx, participantID)
		if err != nil {
			return err
		}
		if am != nil {
			out = describe(a, am)
			if out.Elsewhere {
				return refusal(fiber.StatusConflict, "error.affiliate_elsewhere", "already_attributed", nil)
			}
			return nil
		}
		am = &AffiliateMember{ParticipantID: participantID, PanelID: panel.ID, AffiliateID: a.ID, Via: via, AttributedAt: s.now().UTC()}
		if err := tx.Create(am).Error; err != nil {
			return fmt.Errorf("attribute %s to affiliate %s: %w", participantID, a.Code, err)
		}
		if a.BonusMinor > 0 {
			entry, _, err := s.ledger.CreditTx(tx, wallet.Movement{
				Panel: panel, ParticipantID: participantID, Amount: a.BonusMinor, Currency: panel.CurrencyCode,
				Origin: wallet.OriginManual, Key: AffiliateKey(a.ID), Title: title,
			})
			if err != nil {
				return fmt.Errorf("pay affiliate bonus %s: %w", a.Code, err)
			}
			am.TransactionID = &entry.ID
			if err := tx.Model(am).Update("transaction_id", entry.ID).Error; err != nil {
				return fmt.Errorf("record affiliate bonus %s: %w", a.Code, err)
			}
		}
		out = describe(a, am)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

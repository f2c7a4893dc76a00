package offers

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Ledger is what the module needs from the wallet: credits and reversals in the postback's
// own transaction.
type Ledger interface {
	CreditTx(tx *gorm.DB, mv wallet.Movement) (*wallet.Entry, bool, error)
	ReverseTx(tx *gorm.DB, r wallet.Reversal) (*wallet.Entry, int64, bool, error)
}

// Service is the module's logic: no Fiber, no templ.
type Service struct {
	db          *gorm.DB
	store       *Store
	ledger      Ledger
	sealer      *web.Sealer
	limiter     *ratelimit.Limiter
	newProvider func(ProviderConfig) Provider
	configs     *configCache
	cache       *listCache
	log         *slog.Logger
	now         func() time.Time
}

// Member is whom an offers call is for: the signed-in member, with where they are.
type Member struct {
	Panel         *web.Panel
	ParticipantID string
	Query         Query
	IP, UserAgent string
}

// Enabled tells whether the panel has an offers provider.
func (s *Service) Enabled(ctx context.Context, panelID string) (bool, error) {
	p, err := s.providerOf(ctx, panelID)
	return p != nil, err
}

// provider is the member's panel's provider; ErrNoProvider when it has none.
func (s *Service) provider(ctx context.Context, panelID string) (*panelProvider, error) {
	p, err := s.providerOf(ctx, panelID)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, ErrNoProvider
	}
	return p, nil
}

// List is the panel's offers or games for the member (kept CacheTTL per panel, country,
// language and device).
func (s *Service) List(ctx context.Context, m Member, kind string) ([]Offer, error) {
	p, err := s.provider(ctx, m.Panel.ID)
	if err != nil {
		return nil, err
	}
	return s.lists(ctx, m.Panel.ID, p, kind, m.Query)
}

// Offer is one offer or game of the member's lists.
func (s *Service) Offer(ctx context.Context, m Member, id string) (Offer, error) {
	p, err := s.provider(ctx, m.Panel.ID)
	if err != nil {
		return Offer{}, err
	}
	o, ok, err := s.find(ctx, m.Panel.ID, p, m.Query, id)
	if err != nil {
		return Offer{}, err
	}
	if !ok {
		return Offer{}, ErrNoOffer
	}
	return o, nil
}

// SubID is the member's sub-id at the provider (the profile's trackingIds.hasOffersId).
func (s *Service) SubID(ctx context.Context, panelID, participantID string) (string, error) {
	return s.store.SubID(ctx, panelID, participantID, s.now().UTC())
}

// View tells the provider the member opened an offer (click tracking). It is best effort:
// the member sees the offer even when the provider did not hear of it.
func (s *Service) View(ctx context.Context, m Member, offerID string) (Offer, error) {
	o, err := s.Offer(ctx, m, offerID)
	if err != nil {
		return o, err
	}
	sub, err := s.SubID(ctx, m.Panel.ID, m.ParticipantID)
	if err != nil {
		return o, err
	}
	p, err := s.provider(ctx, m.Panel.ID)
	if err != nil {
		return o, err
	}
	if err := p.provider.ViewOffer(ctx, Click{SubID: sub, OfferID: o.ID, IP: m.IP, UserAgent: m.UserAgent}); err != nil {
		s.log.Warn("offers: view-offer not heard by the provider", "panel", m.Panel.Key, "offer", o.ID, "err", err)
	}
	return o, nil
}

// Start tells the provider the member starts an offer, records their pending row and returns
// where to send them: the provider's link, tagged with their sub-id.
func (s *Service) Start(ctx context.Context, m Member, offerID string) (*Row, Started, error) {
	o, err := s.Offer(ctx, m, offerID)
	if err != nil {
		return nil, Started{}, err
	}
	sub, err := s.SubID(ctx, m.Panel.ID, m.ParticipantID)
	if err != nil {
		return nil, Started{}, err
	}
	p, err := s.provider(ctx, m.Panel.ID)
	if err != nil {
		return nil, Started{}, err
	}
	started, err := p.provider.StartOffer(ctx, Click{SubID: sub, OfferID: o.ID, IP: m.IP, UserAgent: m.UserAgent})
	if err != nil {
		return nil, Started{}, err
	}
	if !web.EndpointURL(started.RedirectURL) {
		return nil, Started{}, ErrUnavailable // never send a member to a plain-http address elsewhere
	}
	reward, _ := web.ParseMoney(o.Reward, m.Panel.CurrencyCode) // the list's estimate; the postback says what is paid
	now := s.now().UTC()
	row, err := s.store.StartRow(ctx, Row{
		ID: uuid.NewString(), ParticipantID: m.ParticipantID, PanelID: m.Panel.ID, OfferID: o.ID, Kind: kindOf(o.Kind), Name: o.Name,
		RewardMinor: max(reward, 0), CurrencyCode: strings.ToUpper(m.Panel.CurrencyCode), Status: StatusPending, ClickID: started.ClickID,
		StartedAt: &now, UpdatedAt: now,
	})
	return row, started, err
}

func kindOf(k string) string {
	if k == KindGame {
		return KindGame
	}
	return KindOffer
}

// Rows is a page of the member's offer rows.
func (s *Service) Rows(ctx context.Context, participantID string, page, size int) ([]Row, bool, error) {
	return s.store.Rows(ctx, participantID, page, size)
}

// MaxIssueMessage bounds a member's issue report.
const MaxIssueMessage = 2000

// ReportIssue stores the member's "I completed it but wasn't credited" report for one of
// their rows and forwards it to the provider. The report is kept even when the provider does
// not answer (forward_error says so); the member is told it was received either way.
func (s *Service) ReportIssue(ctx context.Context, m Member, rowID, message string) (*IssueRow, error) {
	message = strings.TrimSpace(message)
	switch {
	case message == "":
		return nil, ErrIssueEmpty
	case len([]rune(message)) > MaxIssueMessage:
		return nil, ErrIssueLong
	}
	row, err := s.store.Row(ctx, m.ParticipantID, rowID)
	if err != nil {
		return nil, err
	}
	if row == nil {
		return nil, ErrNoRow
	}
	p, err := s.provider(ctx, m.Panel.ID)
	if err != nil {
		return nil, err
	}
	sub, err := s.SubID(ctx, m.Panel.ID, m.ParticipantID)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	issue := &IssueRow{ID: uuid.NewString(), ParticipantID: m.ParticipantID, PanelID: m.Panel.ID, RowID: &row.ID, OfferID: row.OfferID,
		ClickID: row.ClickID, Message: message, CreatedAt: now}
	if err := s.store.SaveIssue(ctx, issue); err != nil {
		return nil, err
	}
	var tx string
	if row.TransactionID != nil {
		tx = *row.TransactionID
	}
	ticket, ferr := p.provider.ReportIssue(ctx, Issue{SubID: sub, OfferID: row.OfferID, ClickID: row.ClickID, TransactionID: tx, Message: message})
	forwardErr := ""
	if ferr != nil {
		forwardErr = ferr.Error()
		s.log.Warn("offers: report-issue not forwarded", "panel", m.Panel.Key, "issue", issue.ID, "err", ferr)
	}
	if err := s.store.IssueForwarded(ctx, issue.ID, ticket, forwardErr, s.now().UTC()); err != nil {
		return nil, err
	}
	issue.TicketID, issue.ForwardError = ticket, forwardErr
	return issue, nil
}

// inTx runs fn in a transaction, again when it lost a race (migrations.InTx).
func (s *Service) inTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return migrations.InTx(ctx, s.db, fn)
}

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/tenancy"
	"gopkg.in/yaml.v3"
)

// Referrals of the demo (docs/members.md, Referrals, blades and affiliates): on each tenant a referrer
// eligible to refer, with a pending invitation (old enough for the feed's "waiting" card), an
// accepted one (a friend who joined and has the welcome campaign still to do, so the reward is
// pending and the referrer's balance stays as it was), one the referrer archived and one past
// the expiry; a reward rule; and one partner code. Fixed ids keep a second load a no-op.

// demoReferral is one tenant's referral demo.
type demoReferral struct {
	panel                     string
	settings                  referrals.SettingsSpec
	referrer                  accounts.RegisterInput // member@demo.test on Canvass Demo (created by LoadDemo)
	friend                    accounts.RegisterInput // joined through the accepted invitation
	idPrefix                  string                 // the invitations' ids: idPrefix + 1..4
	pending, ignored, expired string                 // the other friends' addresses
	affiliate                 referrals.NewAffiliate
}

func demoReferrals() []demoReferral {
	reward, expiry, limit := "2.00", 30, 10
	nwReward := "1.50"
	return []demoReferral{
		{
			panel:    "demo",
			settings: referrals.SettingsSpec{Reward: reward, RewardWhen: referrals.RewardOnWelcome, ExpiryDays: &expiry, DailyLimit: &limit},
			referrer: accounts.RegisterInput{Email: DemoEmail},
			friend:   accounts.RegisterInput{Email: "jamie@demo.test", Password: DemoPassword, FirstName: "Jamie", LanguageCode: "en"},
			idPrefix: "4f6c1d2e-8a0b-4c3d-9e5f-00000000010",
			pending:  "riley@example.com", ignored: "casey@example.com", expired: "morgan@example.com",
			affiliate: referrals.NewAffiliate{Code: "ACME-CASHBACK", Partner: "Acme Cashback", Bonus: "1.00", Operator: "demo"},
		},
		{
			panel:    "northwind",
			settings: referrals.SettingsSpec{Reward: nwReward, RewardWhen: referrals.RewardOnWelcome, ExpiryDays: &expiry, DailyLimit: &limit},
			referrer: accounts.RegisterInput{Email: "ana@northwind.test", Password: DemoPassword, FirstName: "Ana", LanguageCode: "en"},
			friend:   accounts.RegisterInput{Email: "ben@northwind.test", Password: DemoPassword, FirstName: "Ben", LanguageCode: "en"},
			idPrefix: "4f6c1d2e-8a0b-4c3d-9e5f-00000000020",
			pending:  "chloe@example.co.uk", ignored: "dev@example.co.uk", expired: "ellis@example.co.uk",
			affiliate: referrals.NewAffiliate{Code: "NW-DEALS", Partner: "Northwind Deals", Bonus: "1.00", Operator: "demo"},
		},
	}
}

func loadDemoReferrals(ctx context.Context, app *App) error {
	day := 24 * time.Hour
	for _, d := range demoReferrals() {
		panel, err := app.Tenancy.PanelByKey(ctx, d.panel)
		if err != nil {
			return fmt.Errorf("demo referrals of %s: %w", d.panel, err)
		}
		if err := app.Referrals.ApplySettings(ctx, panel.ID, panel.CurrencyCode, &d.settings); err != nil {
			return fmt.Errorf("demo referral rules of %s: %w", d.panel, err)
		}
		svc := app.Accounts.Service()
		if d.referrer.Password != "" {
			if err := svc.EnsureMember(ctx, panel, d.referrer, accounts.Metadata{"welcomeCampaignCompleted": true}); err != nil {
				return fmt.Errorf("demo referrer of %s: %w", d.panel, err)
			}
		}
		// The friend joined two days ago and has their welcome campaign still to do.
		if err := svc.EnsureMember(ctx, panel, d.friend, accounts.Metadata{"welcomeCampaignCompleted": false}); err != nil {
			return fmt.Errorf("demo friend of %s: %w", d.panel, err)
		}
		referrer, err := svc.ParticipantByEmail(ctx, panel, d.referrer.Email)
		if err != nil {
			return err
		}
		friend, err := svc.ParticipantByEmail(ctx, panel, d.friend.Email)
		if err != nil {
			return err
		}
		err = app.Referrals.Service().SeedInvites(ctx, panel, referrer, []referrals.DemoInvite{
			{ID: d.idPrefix + "1", Email: d.pending, Message: "I answer a few surveys a week here - you might like it too.", SentAgo: 4 * day},
			{ID: d.idPrefix + "2", Email: d.friend.Email, SentAgo: 3 * day, AcceptedBy: friend, AcceptedAgo: 2 * day},
			{ID: d.idPrefix + "3", Email: d.ignored, SentAgo: 12 * day, ArchivedAgo: 10 * day},
			{ID: d.idPrefix + "4", Email: d.expired, SentAgo: 45 * day},
		})
		if err != nil {
			return fmt.Errorf("demo referrals of %s: %w", d.panel, err)
		}
		if err := app.Referrals.Service().EnsureAffiliate(ctx, panel, d.affiliate); err != nil {
			return fmt.Errorf("demo affiliate of %s: %w", d.panel, err)
		}
	}
	return nil
}

// tenantReferrals is the referrals part of a tenant file: `referrals:` (absent: the defaults).
type tenantReferrals struct {
	Referrals *referrals.SettingsSpec `yaml:"referrals"`
}

// read reads a tenant file's referrals block and refuses a bad one before anything of the
// file is applied.
func (t *tenantReferrals) read(data []byte, spec tenancy.PanelSpec) error {
	if err := yaml.Unmarshal(data, t); err != nil {
		return err
	}
	_, err := t.Referrals.Resolve("", spec.CurrencyCode)
	return err
}

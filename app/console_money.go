package main

import (
	"context"
	"errors"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/console"
	consolemoney "github.com/canvass/canvass/modules/console/money"
	"github.com/canvass/canvass/modules/web"
)

// consoleMoney is the console's money part: the redemption queue, ledger adjustments,
// competitions, the daily summary and offer credits held for review, over the redemptions,
// wallet, competitions and offers modules.
func consoleMoney(a *App) console.Part {
	return consolemoney.New(consolemoney.Deps{
		Redemptions: a.Redemptions, Wallet: a.Wallet, Competitions: a.Competitions, Offers: a.Offers.Service(), Panel: a.Tenancy.PanelByKey,
		MemberByEmail: func(ctx context.Context, panel *web.Panel, email string) (string, error) {
			pid, err := a.Accounts.Service().ParticipantByEmail(ctx, panel, email)
			if errors.Is(err, accounts.ErrNotFound) {
				return "", nil
			}
			return pid, err
		},
	})
}

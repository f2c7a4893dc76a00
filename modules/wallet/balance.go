package wallet

import (
	"errors"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// BalanceTx is the member's balance inside the caller's transaction, holding their wallet until
// it ends, so what is read is what a debit of it in the same transaction finds (accounts empties
// a wallet when its account closes or moves to another panel); 0 and "" without a wallet.
func (m *Module) BalanceTx(tx *gorm.DB, participantID string) (int64, string, error) {
	w, err := lockWallet(tx, participantID)
	if errors.Is(err, web.ErrNotFound) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	return w.BalanceMinor, w.CurrencyCode, nil
}

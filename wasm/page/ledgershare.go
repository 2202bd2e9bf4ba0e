package page

import (
	"github.com/flakegate/flakegate/internal/share"
)

// LedgerShare is the shareable state of a ledger dropped on the decide
// page (share.LedgerState): its summary, from which core gives every
// test's verdict exactly as from the trials. A decide link carries it as
// "ledger=" + base64url(DEFLATE(JSON)).
type LedgerShare = share.LedgerState

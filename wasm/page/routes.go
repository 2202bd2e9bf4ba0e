package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Pages are the calculators' paths; the static site has one pre-rendered
// HTML file per path ("/" is index.html, "/decide" is decide.html).
var Pages = []string{"/", "/decide", "/aa", "/quarantine", "/compare", "/history"}

// Register routes every calculator. Call it before app.RunWhenOnBrowser
// and before building the app.Handler.
func Register() {
	app.Route("/", func() app.Composer { return &Budget{} })
	app.Route("/decide", func() app.Composer { return &Decide{} })
	app.Route("/aa", func() app.Composer { return &AA{} })
	app.Route("/quarantine", func() app.Composer { return &Quarantine{} })
	app.Route("/compare", func() app.Composer { return &Compare{} })
	app.Route("/history", func() app.Composer { return &History{} })
}

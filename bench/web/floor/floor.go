// Package floor is the smallest go-app page there is, built from the same
// go-app (third_party/go-app) as the calculator: one component that says
// when it has mounted. bench/web loads it exactly as it loads a share link,
// so the calculator's load times can be read against what go-app itself
// costs on the same machine.
package floor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Selector matches the page once the component has mounted in the browser;
// the pre-rendered HTML never matches it.
const Selector = "#hello.mounted"

type hello struct {
	app.Compo
	mounted bool
}

func (h *hello) OnMount(ctx app.Context) { h.mounted = true }

func (h *hello) Render() app.UI {
	if h.mounted {
		return app.H1().ID("hello").Class("mounted").Text("Hello, mounted")
	}
	return app.H1().ID("hello").Text("Hello")
}

// Register routes "/" to the page, on both sides of the build.
func Register() { app.Route("/", func() app.Composer { return &hello{} }) }

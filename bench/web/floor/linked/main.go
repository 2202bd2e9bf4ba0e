// Command linked is go-app's smallest page (package floor) with the whole
// calculator linked into its app.wasm but never run: the three calculators
// are routed at paths the benchmark never opens. bench/web loads it like
// the floor page, to split what the calculator costs beyond go-app into
// what its code's size costs (this page against the floor) and what
// running it costs (a share link against this page).
package main

import (
	"github.com/flakegate/flakegate/bench/web/floor"
	"github.com/flakegate/flakegate/wasm/page"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	floor.Register()
	app.Route("/unused/budget", func() app.Composer { return &page.Budget{} })
	app.Route("/unused/decide", func() app.Composer { return &page.Decide{} })
	app.Route("/unused/aa", func() app.Composer { return &page.AA{} })
	app.RunWhenOnBrowser()
}

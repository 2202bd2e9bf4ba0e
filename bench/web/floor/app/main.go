// Command app is the browser side of package floor: build it with
// GOOS=js GOARCH=wasm into web/app.wasm.
package main

import (
	"github.com/flakegate/flakegate/bench/web/floor"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	floor.Register()
	app.RunWhenOnBrowser()
}

package wasm

import (
	"errors"
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxDropBytes caps a dropped or picked file; larger files are refused with
// a message rather than exhausting the tab's memory.
const maxDropBytes = 512 << 20

// dropZone renders a labelled file picker inside an area that also accepts
// a dragged file. onFile receives the file's name and its JS Blob.
func dropZone(id, label, accept string, onFile func(ctx app.Context, name string, blob app.Value)) app.UI {
	pick := func(ctx app.Context, files app.Value) {
		if !files.Truthy() || files.Get("length").Int() == 0 {
			return
		}
		f := files.Index(0)
		onFile(ctx, f.Get("name").String(), f)
	}
	return app.Div().Class("drop").ID("drop-"+id).
		On("dragover", func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			e.Get("dataTransfer").Set("dropEffect", "copy")
		}).
		On("drop", func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			pick(ctx, e.Get("dataTransfer").Get("files"))
		}).
		Body(
			app.Label().For("file-"+id).Text(label+": drop a file here or choose one"),
			app.Input().Type("file").ID("file-"+id).Accept(accept).
				OnChange(func(ctx app.Context, e app.Event) {
					pick(ctx, ctx.JSSrc().Get("files"))
					// Forget the choice, so that choosing the same file again
					// (say, after fixing it) is a change too; the File read
					// above stays readable.
					ctx.JSSrc().Set("value", "")
				}),
		)
}

// readAll reads a whole Blob, up to maxDropBytes. Call it off the UI
// goroutine (in ctx.Async).
func readAll(blob app.Value) ([]byte, error) {
	if !app.IsClient {
		return nil, errors.New("no browser")
	}
	if blob.Get("size").Int() > maxDropBytes {
		return nil, errors.New("file larger than 512 MiB")
	}
	return io.ReadAll(newFileReader(blob, nil))
}

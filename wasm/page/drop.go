package page

import (
	"errors"
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxDropBytes caps a dropped or picked file; larger files are refused with
// a message rather than exhausting the tab's memory.
const maxDropBytes = 512 << 20

// dropped is one file dropped or picked: its name and its JS File (a
// Blob).
type dropped struct {
	name string
	blob app.Value
}

// dropZone renders a labelled file picker inside an area that also accepts
// a dragged file. onFile receives the file's name and its JS Blob.
func dropZone(id, label, accept string, onFile func(ctx app.Context, name string, blob app.Value)) app.UI {
	return dropFiles(id, label, accept, false, func(ctx app.Context, files []dropped) {
		onFile(ctx, files[0].name, files[0].blob)
	})
}

// dropFiles is dropZone for one file or, with multiple, several at once
// (each test report of a run, say), in the order the browser lists them.
// onFiles is called with at least one file.
func dropFiles(id, label, accept string, multiple bool, onFiles func(ctx app.Context, files []dropped)) app.UI {
	pick := func(ctx app.Context, files app.Value) {
		if !files.Truthy() {
			return
		}
		n := files.Get("length").Int()
		if n > 1 && !multiple {
			n = 1
		}
		var out []dropped
		for i := 0; i < n; i++ {
			f := files.Index(i)
			out = append(out, dropped{name: f.Get("name").String(), blob: f})
		}
		if len(out) > 0 {
			onFiles(ctx, out)
		}
	}
	in := app.Input().Type("file").ID("file-" + id).Accept(accept)
	hint := ": drop a file here or choose one"
	if multiple {
		in, hint = in.Multiple(true), ": drop files here or choose them"
	}
	watchDrops()
	return app.Div().Class("drop").ID("drop-"+id).
		On("drop", func(ctx app.Context, e app.Event) {
			pick(ctx, e.Get(droppedFiles))
		}).
		Body(
			app.Label().For("file-"+id).Text(label+hint),
			in.OnChange(func(ctx app.Context, e app.Event) {
				pick(ctx, ctx.JSSrc().Get("files"))
				// Forget the choice, so that choosing the same file again
				// (say, after fixing it) is a change too; the File read
				// above stays readable.
				ctx.JSSrc().Set("value", "")
			}),
		)
}

// droppedFiles is the property of a drop event where watchDrops keeps its
// files for the go-app handler.
const droppedFiles = "flakegateFiles"

var dropsWatched bool

// watchDrops lets a drop zone take a dropped file. The browser opens a
// file dropped anywhere unless the dragover and drop events are cancelled
// while they are dispatched, and lets a page read the files only then;
// go-app runs its event handlers later, from its update loop. So the
// document's own listeners cancel both over a drop zone and keep the
// drop's files on the event for the zone's go-app handler.
func watchDrops() {
	if !app.IsClient || dropsWatched {
		return
	}
	dropsWatched = true
	over := app.FuncOf(func(this app.Value, args []app.Value) any {
		if e := args[0]; inDropZone(e) {
			e.Call("preventDefault")
			if dt := e.Get("dataTransfer"); dt.Truthy() {
				dt.Set("dropEffect", "copy")
			}
		}
		return nil
	})
	drop := app.FuncOf(func(this app.Value, args []app.Value) any {
		if e := args[0]; inDropZone(e) {
			e.Call("preventDefault")
			if dt := e.Get("dataTransfer"); dt.Truthy() {
				e.Set(droppedFiles, dt.Get("files"))
			}
		}
		return nil
	})
	doc := app.Window().Get("document")
	doc.Call("addEventListener", "dragover", over, true)
	doc.Call("addEventListener", "drop", drop, true)
}

func inDropZone(e app.Value) bool {
	t := e.Get("target")
	return t.Truthy() && t.Get("closest").Truthy() && t.Call("closest", ".drop").Truthy()
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

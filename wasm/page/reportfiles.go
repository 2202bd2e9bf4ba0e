package page

import (
	"fmt"

	"github.com/flakegate/flakegate/core/report"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// withFiles is read followed by files, each new file of arm and with the
// format core/report detects in it (what the page lists beside its name).
func withFiles(read []droppedFile, arm string, files []droppedFile) []droppedFile {
	all := append(append([]droppedFile(nil), read...), files...)
	for i := len(read); i < len(all); i++ {
		all[i].arm = arm
		all[i].format = report.DetectFormat(all[i].data[:min(len(all[i].data), 64<<10)])
	}
	return all
}

// readFiles reads dropped files off the UI goroutine, then hands them to
// done; a file that cannot be read goes to fail, with its name, instead.
func readFiles(ctx app.Context, files []dropped, fail func(err error), done func(ctx app.Context, got []droppedFile)) {
	ctx.Async(func() {
		var got []droppedFile
		for _, f := range files {
			data, err := readAll(f.blob)
			if err != nil {
				err = fmt.Errorf("%s: %w", f.name, err)
				ctx.Dispatch(func(ctx app.Context) { fail(err) })
				return
			}
			got = append(got, droppedFile{name: f.name, data: data})
		}
		ctx.Dispatch(func(ctx app.Context) { done(ctx, got) })
	})
}

// fileList lists the files read, each with its format (and its arm, when
// withArm), under id.
func fileList(id string, files []droppedFile, withArm bool) app.UI {
	return app.Ul().Class("loaded").ID(id).Body(app.Range(files).Slice(func(i int) app.UI {
		f := files[i]
		what := f.format
		if what == "" {
			what = "report"
		}
		if withArm {
			what = f.arm + ", " + what
		}
		return app.Li().Body(app.Code().Text(f.name), app.Text(" ("+what+")"))
	}))
}

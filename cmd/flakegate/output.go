package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// output is how a command prints its result (the text report, -json or
// -markdown) and where the calculator is, for the link in every result
// (-site, or FLAKEGATE_SITE; no link without one).
type output struct {
	json, markdown bool
	site           string
	// For CI: files the JSON result and the Markdown summary also go to,
	// and whether to print GitHub Actions annotations.
	jsonOut, markdownOut string
	annotations          bool
}

// outputFlags defines -json, -markdown and -site on fs.
func outputFlags(fs *flag.FlagSet) *output {
	o := &output{}
	fs.BoolVar(&o.json, "json", false, "print the JSON result")
	fs.BoolVar(&o.markdown, "markdown", false, "print the summary a pull request shows (GitHub-flavoured Markdown)")
	fs.StringVar(&o.site, "site", "", "the calculator's `address` (such as https://flakegate.example): each result links to the view that reproduces it (default $FLAKEGATE_SITE; no link without one)")
	fs.StringVar(&o.jsonOut, "json-out", "", "also write the JSON result to `file`")
	fs.StringVar(&o.markdownOut, "markdown-out", "", "also append the Markdown summary to `file` (such as $GITHUB_STEP_SUMMARY)")
	fs.BoolVar(&o.annotations, "annotations", false, "also print GitHub Actions annotations: an ::error per test that blocks, naming the report that showed it, and a ::warning per caveat")
	return o
}

// check validates the flags once parsed and reads the site's address, ""
// when there is none.
func (o *output) check(e *env) (string, error) {
	if o.json && o.markdown {
		return "", usagef("give -json or -markdown, not both")
	}
	s, from := o.site, "-site"
	if s == "" {
		s, from = e.getenv("FLAKEGATE_SITE"), "FLAKEGATE_SITE"
	}
	if s == "" {
		return "", nil
	}
	site, err := share.ParseSite(s)
	if err != nil {
		return "", usagef("%s: %v", from, err)
	}
	return site, nil
}

// printed is a command's result and the ways to print it.
type printed struct {
	res      any        // the JSON result
	link     words.Link // where it reopens
	markdown func() string
	text     func(io.Writer) error
	// notes are its annotations (-annotations); nil for none.
	notes func() []annotation
}

// print writes the result as the flags ask: JSON, the Markdown summary, or
// the text report followed by the link; and, for CI, the JSON and the
// summary to files and the annotations before the report.
func (o *output) print(e *env, r printed) error {
	if o.jsonOut != "" {
		var b bytes.Buffer
		if err := core.WriteJSON(&b, r.res); err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonOut, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("-json-out: %w", unwrapPathError(err))
		}
	}
	if o.markdownOut != "" {
		f, err := os.OpenFile(o.markdownOut, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("-markdown-out: %w", unwrapPathError(err))
		}
		_, err = io.WriteString(f, r.markdown())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("-markdown-out: %w", unwrapPathError(err))
		}
	}
	if o.annotations && r.notes != nil {
		for _, a := range r.notes() {
			fmt.Fprintln(e.stdout, a)
		}
	}
	switch {
	case o.json:
		return core.WriteJSON(e.stdout, r.res)
	case o.markdown:
		_, err := io.WriteString(e.stdout, r.markdown())
		return err
	}
	if err := r.text(e.stdout); err != nil {
		return err
	}
	writeLink(e.stdout, r.link)
	return nil
}

// writeLink ends a text report with its link and what the link leaves out.
func writeLink(w io.Writer, l words.Link) {
	if l.URL != "" {
		fmt.Fprintf(w, "link: %s\n", l.URL)
	}
	if l.Note != "" {
		fmt.Fprintf(w, "link note: %s\n", l.Note)
	}
}

package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/share"
	"github.com/flakegate/flakegate/words"
)

// output is how a command prints its result (the text report, -json or
// -markdown) and where the calculator is, for the link in every result
// (-site, or FLAKEGATE_SITE; no link without one).
type output struct {
	json, markdown bool
	site           string
}

// outputFlags defines -json, -markdown and -site on fs.
func outputFlags(fs *flag.FlagSet) *output {
	o := &output{}
	fs.BoolVar(&o.json, "json", false, "print the JSON result")
	fs.BoolVar(&o.markdown, "markdown", false, "print the summary a pull request shows (GitHub-flavoured Markdown)")
	fs.StringVar(&o.site, "site", "", "the calculator's `address` (such as https://flakegate.example): each result links to the view that reproduces it (default $FLAKEGATE_SITE; no link without one)")
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

// print writes the result as the flags ask: JSON, the Markdown summary, or
// the text report followed by the link.
func (o *output) print(e *env, res any, link words.Link, markdown func() string, text func(io.Writer) error) error {
	switch {
	case o.json:
		return core.WriteJSON(e.stdout, res)
	case o.markdown:
		_, err := io.WriteString(e.stdout, markdown())
		return err
	}
	if err := text(e.stdout); err != nil {
		return err
	}
	writeLink(e.stdout, link)
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

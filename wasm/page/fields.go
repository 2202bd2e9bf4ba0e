package page

import (
	"strconv"

	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fieldNum renders a computed number: its exact value in the value
// attribute, text for people.
func fieldNum(name string, v float64, text string) app.UI {
	return app.Data().DataSet("field", name).Attr("value", words.Exact(v)).Text(text)
}

// fieldInt renders a computed integer.
func fieldInt(name string, v int64) app.UI {
	return app.Data().DataSet("field", name).Attr("value", strconv.FormatInt(v, 10)).Text(words.Count(v))
}

// fieldOptNum renders a number that may be a JSON null.
func fieldOptNum(name string, v *float64, format func(float64) string) app.UI {
	if v == nil {
		return fieldNull(name)
	}
	return fieldNum(name, *v, format(*v))
}

// fieldOptInt renders an integer that may be a JSON null.
func fieldOptInt(name string, v *int64) app.UI {
	if v == nil {
		return fieldNull(name)
	}
	return fieldInt(name, *v)
}

func fieldNull(name string) app.UI {
	return app.Data().DataSet("field", name).Attr("value", "null").Text("—")
}

// fieldStr renders a computed word such as a verdict or a lane.
func fieldStr(name, v string) app.UI {
	return app.Data().DataSet("field", name).Attr("value", v).Text(v)
}

// fieldStrText renders a computed string with different display text.
func fieldStrText(name, v, text string) app.UI {
	return app.Data().DataSet("field", name).Attr("value", v).Text(text)
}

// fieldBool renders a computed yes/no.
func fieldBool(name string, v bool, yes, no string) app.UI {
	text := no
	if v {
		text = yes
	}
	return app.Data().DataSet("field", name).Attr("value", strconv.FormatBool(v)).Text(text)
}

// warnings lists a result's caveats; each item is field i of scope warnings.
func warnings(ws []string) app.UI {
	return app.Ul().Class("warnings").DataSet("scope", "warnings").Body(
		app.Range(ws).Slice(func(i int) app.UI {
			return app.Li().Body(fieldStr(strconv.Itoa(i), ws[i]))
		}),
	)
}

// hidden is a span of figures kept for readers of the page's data (the
// tests, fieldcheck) and shown to no one: off the screen, and hidden from
// screen readers, which would read its raw words ("observed_upper",
// "fits") in the middle of a sentence.
func hidden() app.HTMLSpan { return app.Span().Class("hidden-field").Aria("hidden", "true") }

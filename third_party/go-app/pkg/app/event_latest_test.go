package app

// flakegate: a mounted element's listener calls the handler of the latest
// render, also when every render builds a new closure of the same function
// literal (upstream kept the first render's: it compared functions only).

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUpdateHTMLListenerCallsTheLatestClosure(t *testing.T) {
	ctx := makeTestContext()
	var m nodeManager
	got := 0
	// One function literal: every closure has the same code pointer, as a
	// component's Render builds its handlers.
	click := func(n int) EventHandler { return func(Context, Event) { got = n } }

	div, err := m.Mount(ctx, 1, Div().OnClick(click(1)))
	require.NoError(t, err)
	mounted := div.(HTML).events()["click"].latest
	require.NotNil(t, mounted)

	for n := 2; n <= 3; n++ {
		div, err = m.Update(ctx, div, Div().OnClick(click(n)))
		require.NoError(t, err)
		h := div.(HTML).events()["click"]
		// The listener mounted first reads this cell when an event comes.
		require.Same(t, mounted, h.latest, "the listener was replaced instead of kept")
		(*mounted)(ctx, Event{})
		require.Equal(t, n, got, "the listener calls an earlier render's closure")
	}

	// A different function is taken up the same way.
	div, err = m.Update(ctx, div, Div().OnClick(func(Context, Event) { got = 10 }))
	require.NoError(t, err)
	(*mounted)(ctx, Event{})
	require.Equal(t, 10, got)

	// A passive listener is another listener: mounted anew.
	div, err = m.Update(ctx, div, Div().On("click", click(4), PassiveEvent()))
	require.NoError(t, err)
	h := div.(HTML).events()["click"]
	require.NotSame(t, mounted, h.latest)
	(*h.latest)(ctx, Event{})
	require.Equal(t, 4, got)
}

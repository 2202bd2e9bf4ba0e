package app

// flakegate: tests of the immediate frame in engineX.Start.

import (
	"context"
	"net/url"
	"testing"
)

// startIdle starts e at framerate fps, waits until it is idle with nothing
// queued (navigating queues work of its own), and returns the immediate
// frames counted so far, a channel that receives each time the engine goes
// idle again, and a stop function.
func startIdle(t *testing.T, fps int) (*engineX, *navigatorComponent, int, chan idleState, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var comp *navigatorComponent
	routes := makeRouter()
	routes.route("/", func() Composer {
		comp = &navigatorComponent{onNav: func(Context) {}}
		return comp
	})
	e := newTestEngine()
	e.ctx = ctx
	e.routes = &routes
	idle := make(chan idleState, 16)
	e.onIdle = func() { idle <- idleState{queued: len(e.dispatches), immediate: e.immediateFrames} }
	destination, _ := url.Parse("/")
	e.Navigate(destination, false)
	done := make(chan struct{})
	go func() {
		e.Start(fps)
		close(done)
	}()
	for {
		if s := <-idle; s.queued == 0 {
			return e, comp, s.immediate, idle, func() { cancel(); <-done }
		}
	}
}

// idleState is what the engine's goroutine saw as it went idle.
type idleState struct{ queued, immediate int }

// An update dispatched while the engine is idle is rendered, and its
// deferred functions run, in the same turn of the loop rather than on the
// next tick (half a second away at 2 fps). The counter, not the clock,
// tells which path rendered it.
func TestEngineStartRendersFirstEventAfterIdleAtOnce(t *testing.T) {
	e, comp, base, _, stop := startIdle(t, 2)
	defer stop()

	rendered := make(chan int, 1)
	e.dispatch(func() {
		e.updates.Add(comp, 1)
		e.defere(func() { rendered <- e.immediateFrames - base })
	})
	if got := <-rendered; got != 1 {
		t.Fatalf("%d immediate frames, want the update rendered at once (1)", got)
	}
}

// Events queued while the first one runs join its render; an event that
// arrives within the following frame waits for the ticker, so a burst costs
// one render per frame, not one per event.
func TestEngineStartBatchesEventsWhileActive(t *testing.T) {
	e, _, base, idle, stop := startIdle(t, 2)
	defer stop()

	type seen struct{ immediate, queuedRan int }
	first, later := make(chan seen, 1), make(chan seen, 1)
	queuedRan := 0
	e.dispatch(func() {
		for i := 0; i < 10; i++ {
			e.dispatch(func() { queuedRan++ })
		}
		e.defere(func() {
			first <- seen{e.immediateFrames - base, queuedRan}
			e.dispatch(func() {
				e.defere(func() { later <- seen{e.immediateFrames - base, queuedRan} })
			})
		})
	})
	if got := <-first; got != (seen{1, 10}) {
		t.Fatalf("first event: %d immediate frames, %d queued events run before its render; want 1 and 10", got.immediate, got.queuedRan)
	}
	if got := <-later; got.immediate != 1 {
		t.Fatalf("an event within the active frame was rendered at once (%d immediate frames), want on the tick", got.immediate)
	}
	<-idle // and then the engine rests again
}

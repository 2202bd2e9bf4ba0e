package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestBeforeDeadline: the handler sees a deadline margin before Lambda's,
// half the time left when that is short, and none when there is none.
func TestBeforeDeadline(t *testing.T) {
	var got time.Time
	var has bool
	h := beforeDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, has = r.Context().Deadline()
	}), deadlineMargin)
	serve := func(ctx context.Context) {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/v1/health", nil).WithContext(ctx))
	}
	for _, tc := range []struct {
		left, want time.Duration // time left at Lambda's deadline, and before the handler's
	}{
		{30 * time.Second, 30*time.Second - deadlineMargin},
		{2 * deadlineMargin, deadlineMargin},
		{400 * time.Millisecond, 200 * time.Millisecond},
	} {
		d := time.Now().Add(tc.left)
		ctx, cancel := context.WithDeadline(context.Background(), d)
		serve(ctx)
		cancel()
		// The half of the time left is taken a moment after d was set.
		if want := d.Add(tc.want - tc.left); !has || got.After(want.Add(time.Millisecond)) || got.Before(want.Add(-50*time.Millisecond)) {
			t.Errorf("%v left: the handler's deadline is %v (set %v), want about %v", tc.left, got.Sub(d), has, tc.want-tc.left)
		}
	}
	serve(context.Background())
	if has {
		t.Errorf("a deadline %v where Lambda set none", got)
	}
}

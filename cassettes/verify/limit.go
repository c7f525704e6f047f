package verify

import (
	"context"
	"sync"
	"time"
)

// limiter spaces the starts of requests evenly: at most rate a second, each
// start at least 1/rate after the one before. A start that comes late (the
// caller was busy) does not let later ones catch up, so the requests never
// burst, whatever the concurrency. A nil limiter does not limit.
type limiter struct {
	interval time.Duration
	now      func() time.Time
	sleep    func(ctx context.Context, d time.Duration) error

	mu   sync.Mutex // guards next
	next time.Time  // the earliest start of the next request
}

// newLimiter returns a limiter for rate requests a second, or nil for a
// rate of 0 or less (no limit).
func newLimiter(rate float64) *limiter {
	if rate <= 0 {
		return nil
	}
	return &limiter{interval: time.Duration(float64(time.Second) / rate), now: time.Now, sleep: sleepCtx}
}

// wait blocks until the caller's turn to start a request, or until ctx is
// done (its error then).
func (l *limiter) wait(ctx context.Context) error {
	if l == nil {
		return ctx.Err()
	}
	l.mu.Lock()
	now := l.now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	return l.sleep(ctx, at.Sub(now))
}

// sleepCtx sleeps for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

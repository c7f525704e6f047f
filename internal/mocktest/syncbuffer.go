package mocktest

import (
	"bytes"
	"sync"
)

// SyncBuffer is a bytes.Buffer that several goroutines may write to at
// once (a logger's handlers, a process's stdout and stderr) while a test
// reads what it holds.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

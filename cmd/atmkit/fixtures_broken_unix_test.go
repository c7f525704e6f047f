//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func init() {
	brokenSets = append(brokenSets, brokenSet{"a named pipe for a file", func(t *testing.T, dir string) {
		path := filepath.Join(dir, "atms.jsonl")
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}, exitUsage, "read atms.jsonl: is a named pipe, not a regular file"})
}

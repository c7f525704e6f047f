// Command holdopen opens a file as most Windows programs do (os.Open:
// sharing reads and writes, not deletes, so the file cannot be renamed over
// or deleted while it is open), says "open" on stdout, and keeps it open
// until a file of the given glob appears in its directory, then for the
// given duration more. TestWindowsBinaryUnderWine runs it under Wine to
// hold a cassette open while atmkit rewrites it, as an editor, a virus
// scanner or a search indexer does for a moment.
//
//	holdopen FILE GLOB DURATION
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: holdopen FILE GLOB DURATION")
		os.Exit(2)
	}
	more, err := time.ParseDuration(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("open")
	glob := filepath.Join(filepath.Dir(os.Args[1]), os.Args[2])
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m, _ := filepath.Glob(glob); len(m) > 0 {
			break
		}
	}
	time.Sleep(more)
	_ = f.Close()
	fmt.Println("closed")
}

package main

import (
	"os"
	"testing"
)

// testMainVar, set to 1 in its environment, makes the test binary run
// atmkit's main with its arguments instead of the tests: it stands in for
// atmkit where a command starts atmkit itself (bench --atms-scale starts
// atmkit serve processes with os.Executable). It is not an ATMKIT_*
// variable, which such children do not inherit.
const testMainVar = "GO_TEST_ATMKIT_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(testMainVar) == "1" {
		os.Args = append([]string{"atmkit"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

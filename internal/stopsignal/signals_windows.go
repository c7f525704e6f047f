package stopsignal

import (
	"os"
	"syscall"
)

// Signals ask atmkit to stop. Windows has no signals: Go delivers Ctrl-C
// and Ctrl-Break in the console as os.Interrupt, and closing the console
// window, logging off and shutting down as SIGTERM. After one of the last
// three, Windows ends the process within a few seconds whatever its
// --grace. Another program cannot send a console program SIGTERM
// (taskkill without /F asks windows to close, which a console program
// does not have); it can only end it at once (taskkill /F).
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

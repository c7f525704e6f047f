// Command printargs prints each of its arguments as the Windows C
// runtime's rules (Go's own) split its command line, Go-quoted, one a line
// after "ARG ", then "END". TestReproduceLinesUnderWine runs it under
// Wine's cmd.exe in place of curl.exe, to show what a printed command line
// hands a Windows program.
//
//	printargs ARG...
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	for _, a := range os.Args[1:] {
		fmt.Println("ARG " + strconv.Quote(a))
	}
	fmt.Println("END")
}

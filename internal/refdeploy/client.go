package refdeploy

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// clientPrograms are what BuildClient needs: Mono's wsdl tool and C#
// compiler (Debian: mono-devel), and mono to run the result.
var clientPrograms = []string{"wsdl", "mcs", "mono"}

// RequireClient skips tb when Mono's wsdl tool, mcs or mono is missing, or
// fails it under CI=true.
func RequireClient(tb testing.TB) {
	tb.Helper()
	require(tb, missingOf(clientPrograms), "a .NET client", "Debian: apt-get install mono-devel")
}

// BuildClient builds a .NET client the way an app team makes one: Mono's
// wsdl tool generates a C# proxy from the WSDL at wsdlURL (a URL or a
// file; its classes go in the C# namespace Proxy), and mcs compiles it
// with the given C# source files into a program in a temporary directory
// of tb. It returns the program's path; run it with mono.
func BuildClient(tb testing.TB, wsdlURL string, sources ...string) string {
	tb.Helper()
	RequireClient(tb)
	dir := tb.TempDir()
	proxy := filepath.Join(dir, "Proxy.cs")
	run := func(name string, args ...string) {
		tb.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run("wsdl", "-nologo", "-n:Proxy", "-out:"+proxy, wsdlURL)
	exe := filepath.Join(dir, "client.exe")
	args := []string{"-nologo", "-out:" + exe, "-r:System.Web.Services", "-r:System.Xml", "-r:System.Data", proxy}
	for _, s := range sources {
		abs, err := filepath.Abs(s)
		if err != nil {
			tb.Fatal(err)
		}
		args = append(args, abs)
	}
	run("mcs", args...)
	return exe
}

//go:build !linux

package refdeploy

import "os/exec"

// inGroup does nothing where Mono's reference deployment does not run
// (its tests skip); the package builds so that every test package does.
func inGroup(*exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

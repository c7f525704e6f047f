package shell

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// processQueryLimitedInformation is PROCESS_QUERY_LIMITED_INFORMATION,
// which syscall does not name: enough for GetProcessTimes, and granted
// for more processes than PROCESS_QUERY_INFORMATION.
const processQueryLimitedInformation = 0x1000

// snapshot reads the process table (CreateToolhelp32Snapshot) and this
// process's id, with the start times of this process and its ancestors
// up to MaxDepth+1 (for Walk's check of a reused id); nil when it cannot
// be read.
func snapshot() ([]Proc, uint32) {
	self := uint32(os.Getpid())
	h, err := syscall.CreateToolhelp32Snapshot(syscall.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil, self
	}
	defer syscall.CloseHandle(h)
	var procs []Proc
	var e syscall.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err = syscall.Process32First(h, &e); err == nil; err = syscall.Process32Next(h, &e) {
		procs = append(procs, Proc{PID: e.ProcessID, PPID: e.ParentProcessID, Exe: syscall.UTF16ToString(e.ExeFile[:])})
	}
	index := make(map[uint32]int, len(procs))
	for i, p := range procs {
		index[p.PID] = i
	}
	pid := self
	for range MaxDepth + 1 {
		i, ok := index[pid]
		if !ok {
			break
		}
		procs[i].Created = created(pid)
		pid = procs[i].PPID
	}
	return procs, self
}

// created is when process pid started; zero when it cannot be read.
func created(pid uint32) time.Time {
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, pid)
	if err != nil {
		return time.Time{}
	}
	defer syscall.CloseHandle(h)
	var c, x, k, u syscall.Filetime
	if err := syscall.GetProcessTimes(h, &c, &x, &k, &u); err != nil {
		return time.Time{}
	}
	return time.Unix(0, c.Nanoseconds())
}

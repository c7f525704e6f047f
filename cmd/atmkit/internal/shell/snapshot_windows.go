package shell

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// processQueryLimitedInformation is PROCESS_QUERY_LIMITED_INFORMATION,
// which syscall does not name: enough for GetProcessTimes, and granted
// for more processes than PROCESS_QUERY_INFORMATION.
const processQueryLimitedInformation = 0x1000

// snapshot reads the process table (CreateToolhelp32Snapshot) and this
// process's id, with the start times of this process and its ancestors
// up to MaxDepth+1 (for Walk's check of a reused id) and the command lines
// of the shells among them (for IsRunner); nil when it cannot be read.
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
		if _, ok := shells[strings.ToLower(baseName(procs[i].Exe))]; ok && pid != self {
			procs[i].Args = commandLine(pid)
		}
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

// maxCommandLine is the longest command line Windows takes, in UTF-16
// code units (CreateProcess: 32,767 characters with the terminating NUL).
const maxCommandLine = 32767

// commandLine is the command line process pid was started with; empty
// when it cannot be read. Windows 8.1 and later answer
// NtQueryInformationProcess's ProcessCommandLineInformation to a handle
// with PROCESS_QUERY_LIMITED_INFORMATION; Wine 8 does not know that class
// (STATUS_INVALID_INFO_CLASS), and it is then read from the process's PEB
// (ProcessBasicInformation, ReadProcessMemory), which needs
// PROCESS_VM_READ.
func commandLine(pid uint32) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	// A UNICODE_STRING then its text; uint64s keep its pointer aligned.
	buf := make([]uint64, (unsafe.Sizeof(windows.NTUnicodeString{})+2*maxCommandLine+7)/8)
	if windows.NtQueryInformationProcess(h, windows.ProcessCommandLineInformation, unsafe.Pointer(&buf[0]), uint32(8*len(buf)), nil) == nil {
		s := (*windows.NTUnicodeString)(unsafe.Pointer(&buf[0])).String()
		runtime.KeepAlive(buf)
		return s
	}
	return pebCommandLine(pid)
}

// pebCommandLine reads the command line of process pid from its PEB's
// RTL_USER_PROCESS_PARAMETERS, as Windows 8 and earlier tools did; empty
// when it cannot be read (no PROCESS_VM_READ, or a process of another
// bitness). The other process's addresses are held as uintptrs, never in
// Go pointers (x/sys/windows's structures have pointer fields), and only
// the fields needed are read: the structures grew with Windows versions.
func pebCommandLine(pid uint32) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_INFORMATION|windows.PROCESS_VM_READ, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	var info struct { // PROCESS_BASIC_INFORMATION
		ExitStatus     windows.NTStatus
		PebBaseAddress uintptr
		_              [4]uintptr // AffinityMask, BasePriority, UniqueProcessId, InheritedFromUniqueProcessId
	}
	if windows.NtQueryInformationProcess(h, windows.ProcessBasicInformation, unsafe.Pointer(&info), uint32(unsafe.Sizeof(info)), nil) != nil || info.PebBaseAddress == 0 {
		return ""
	}
	var params uintptr // PEB.ProcessParameters
	if readRemote(h, info.PebBaseAddress+unsafe.Offsetof(windows.PEB{}.ProcessParameters), unsafe.Pointer(&params), unsafe.Sizeof(params)) != nil || params == 0 {
		return ""
	}
	var line struct { // RTL_USER_PROCESS_PARAMETERS.CommandLine, a UNICODE_STRING
		Length, MaximumLength uint16
		Buffer                uintptr
	}
	if readRemote(h, params+unsafe.Offsetof(windows.RTL_USER_PROCESS_PARAMETERS{}.CommandLine), unsafe.Pointer(&line), unsafe.Sizeof(line)) != nil {
		return ""
	}
	n := int(line.Length / 2)
	if n == 0 || line.Buffer == 0 {
		return ""
	}
	text := make([]uint16, n)
	if readRemote(h, line.Buffer, unsafe.Pointer(&text[0]), uintptr(2*n)) != nil {
		return ""
	}
	return windows.UTF16ToString(text)
}

// readRemote reads size bytes at address addr of process h into p, all of
// them or an error.
func readRemote(h windows.Handle, addr uintptr, p unsafe.Pointer, size uintptr) error {
	var n uintptr
	if err := windows.ReadProcessMemory(h, addr, (*byte)(p), size, &n); err != nil {
		return err
	}
	if n != size {
		return windows.ERROR_PARTIAL_COPY
	}
	return nil
}

/*
 * bcryptprimitives.dll for Wine 8, which lacks it: Go's Windows runtime
 * (Go 1.24 and later) takes its random bytes from ProcessPrng there and
 * stops at start ("bcryptprimitives.dll not found") without it. This one
 * exports ProcessPrng on top of RtlGenRandom (SystemFunction036, advapi32),
 * which Wine has. Only TestWindowsBinaryUnderWine builds it (mingw-w64):
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll \
 *     bcryptprimitives.c bcryptprimitives.def -ladvapi32
 *
 * and copies it into its own Wine prefix's drive_c/windows/system32.
 * Windows 10 and later have the real one; never ship this.
 */
#include <windows.h>

__declspec(dllimport) BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n)
{
	while (n > 0) {
		ULONG k = n > 0x10000000 ? 0x10000000 : (ULONG)n;
		if (!SystemFunction036(data, k))
			return FALSE;
		data += k;
		n -= k;
	}
	return TRUE;
}

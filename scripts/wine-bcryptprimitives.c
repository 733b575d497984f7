// A stand-in for Windows' bcryptprimitives.dll under wine 8 (Debian 12), which lacks it: Rust's standard library
// (1.78 and later) takes its random bytes from ProcessPrng there. Windows 10 and later, and newer wine, have the
// real DLL; scripts/windows-test.sh builds this one into its temporary wine prefix only.
#include <windows.h>
#include <bcrypt.h>
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    return BCryptGenRandom(NULL, data, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0;
}

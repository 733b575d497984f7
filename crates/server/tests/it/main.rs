//! parlor-server's tests, on loopback.

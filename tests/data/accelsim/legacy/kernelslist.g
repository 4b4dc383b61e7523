MemcpyHtoD,0x00007f1a2c000000,65536
kernel-1.traceg
kernel-2.traceg

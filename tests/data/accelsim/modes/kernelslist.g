MemcpyHtoD,0x00007f1a2c000000,4096
kernel-1.traceg

MemcpyHtoD,0x00007f1a2c100000,8192
kernel-2.traceg
kernel-3.traceg
MemcpyDtoH,0x00007f1a2c200000,4096

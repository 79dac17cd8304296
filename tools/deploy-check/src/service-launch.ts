/** How every launcher runs a service (docs/operators/capacity.md#memory): the image, the chart, k8s/, the scripts, the bench. */
export const SERVICE_NODE_FLAG = '--min-semi-space-size=16';
export const SERVICE_ENV = { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=1048576' };

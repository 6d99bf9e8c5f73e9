/*
 * A stand-in for libcuda.so.1 used by the tests of dev.proofline.cuda on machines without a GPU.
 *
 * It implements, on the host, the subset of the driver API that CudaDriver binds: two devices with
 * fixed names, memory sizes and attributes; "device" memory is malloc'd host memory whose address is
 * the CUdeviceptr; copies are memcpy; streams run everything at once; events count recordings and
 * report 1.5 ms per recording between them. Allocating more than a device's free memory fails with
 * CUDA_ERROR_OUT_OF_MEMORY. Calls other than cuInit, cuDriverGetVersion and the error-string ones
 * fail with CUDA_ERROR_NOT_INITIALIZED before cuInit, and the ones that need a context fail with
 * CUDA_ERROR_INVALID_CONTEXT unless the calling thread has made one current.
 *
 * One kernel exists in every module: "vec_add_u32(u32 *out, const u32 *a, const u32 *b, u32 n,
 * u64 k)", which sets out[i] = a[i] + b[i] + (u32) k for each i < min(n, grid.x * block.x). Module
 * images, launches and the live allocations are recorded and can be read through the fake_*
 * functions at the end, which also inject failures. fake_load_kernels(path) adds the kernels of a
 * host library: a function named <name> of a module is then the library's
 * "int fake_kernel_<name>(unsigned grid_x, unsigned block_x, void **params)", run at the launch.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
    OK = 0,
    E_INVALID_VALUE = 1,
    E_OUT_OF_MEMORY = 2,
    E_NOT_INITIALIZED = 3,
    E_NO_DEVICE = 100,
    E_INVALID_DEVICE = 101,
    E_INVALID_IMAGE = 200,
    E_INVALID_CONTEXT = 201,
    E_INVALID_PTX = 218,
    E_INVALID_HANDLE = 400,
    E_NOT_FOUND = 500,
    E_NOT_READY = 600,
    E_UNKNOWN = 999
};

#define MAX_DEVICES 2
#define GIB (1024ULL * 1024 * 1024)

static const char *const NAMES[MAX_DEVICES] = {"Proofline Fake GPU A", "Proofline Fake GPU B"};
static const unsigned long long TOTAL[MAX_DEVICES] = {8 * GIB, 4 * GIB};
static const int CC_MAJOR[MAX_DEVICES] = {9, 8};
static const int CC_MINOR[MAX_DEVICES] = {0, 6};
static const int SMS[MAX_DEVICES] = {132, 84};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int initialized;
static CUresult init_result = OK;
static int device_count = MAX_DEVICES;
static unsigned long long used[MAX_DEVICES];

struct context {
    int device;
    int refs;
};
static struct context contexts[MAX_DEVICES] = {{0, 0}, {1, 0}};
static __thread struct context *current;

/* ---- allocations: a list of live device and pinned blocks ---- */

struct block {
    void *p;
    size_t size;
    int device; /* -1 for pinned host memory */
    struct block *next;
};
static struct block *blocks;
static long live_device, live_pinned;

static void add_block(void *p, size_t size, int device) {
    struct block *b = malloc(sizeof *b);
    b->p = p;
    b->size = size;
    b->device = device;
    b->next = blocks;
    blocks = b;
    if (device < 0) {
        live_pinned++;
    } else {
        live_device++;
        used[device] += size;
    }
}

/* Removes the block that starts at p and has the given kind; returns 0 when there is none. */
static int remove_block(void *p, int pinned) {
    for (struct block **at = &blocks; *at; at = &(*at)->next) {
        struct block *b = *at;
        if (b->p == p && (b->device < 0) == pinned) {
            *at = b->next;
            if (pinned) {
                live_pinned--;
            } else {
                live_device--;
                used[b->device] -= b->size;
            }
            free(b->p);
            free(b);
            return 1;
        }
    }
    return 0;
}

/* Whether [p, p + n) lies inside one live device block. */
static int device_range(CUdeviceptr p, size_t n) {
    int ok = 0;
    pthread_mutex_lock(&lock);
    for (struct block *b = blocks; b; b = b->next) {
        uintptr_t s = (uintptr_t) b->p;
        if (b->device >= 0 && p >= s && p + n <= s + b->size) {
            ok = 1;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

#define NEED_INIT() do { if (!initialized) return E_NOT_INITIALIZED; } while (0)
#define NEED_CONTEXT() do { NEED_INIT(); if (current == NULL || current->refs == 0) return E_INVALID_CONTEXT; } while (0)

/* ---- errors ---- */

CUresult cuGetErrorName(CUresult error, const char **s) {
    switch (error) {
    case OK: *s = "CUDA_SUCCESS"; return OK;
    case E_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return OK;
    case E_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return OK;
    case E_NOT_INITIALIZED: *s = "CUDA_ERROR_NOT_INITIALIZED"; return OK;
    case E_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; return OK;
    case E_INVALID_DEVICE: *s = "CUDA_ERROR_INVALID_DEVICE"; return OK;
    case E_INVALID_IMAGE: *s = "CUDA_ERROR_INVALID_IMAGE"; return OK;
    case E_INVALID_CONTEXT: *s = "CUDA_ERROR_INVALID_CONTEXT"; return OK;
    case E_INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return OK;
    case E_INVALID_HANDLE: *s = "CUDA_ERROR_INVALID_HANDLE"; return OK;
    case E_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; return OK;
    case E_NOT_READY: *s = "CUDA_ERROR_NOT_READY"; return OK;
    case E_UNKNOWN: *s = "CUDA_ERROR_UNKNOWN"; return OK;
    default: *s = NULL; return E_INVALID_VALUE;
    }
}

CUresult cuGetErrorString(CUresult error, const char **s) {
    switch (error) {
    case OK: *s = "no error"; return OK;
    case E_INVALID_VALUE: *s = "invalid argument"; return OK;
    case E_OUT_OF_MEMORY: *s = "out of memory"; return OK;
    case E_NOT_INITIALIZED: *s = "initialization error"; return OK;
    case E_NO_DEVICE: *s = "no CUDA-capable device is detected"; return OK;
    case E_INVALID_DEVICE: *s = "invalid device ordinal"; return OK;
    case E_INVALID_IMAGE: *s = "device kernel image is invalid"; return OK;
    case E_INVALID_CONTEXT: *s = "invalid device context"; return OK;
    case E_INVALID_PTX: *s = "a PTX JIT compilation failed"; return OK;
    case E_INVALID_HANDLE: *s = "invalid resource handle"; return OK;
    case E_NOT_FOUND: *s = "named symbol not found"; return OK;
    case E_NOT_READY: *s = "device not ready"; return OK;
    case E_UNKNOWN: *s = "unknown error"; return OK;
    default: *s = NULL; return E_INVALID_VALUE;
    }
}

/* ---- initialization and devices ---- */

CUresult cuInit(unsigned int flags) {
    if (flags != 0) {
        return E_INVALID_VALUE;
    }
    if (init_result != OK) {
        return init_result;
    }
    initialized = 1;
    return OK;
}

CUresult cuDriverGetVersion(int *version) {
    if (version == NULL) {
        return E_INVALID_VALUE;
    }
    *version = 13000;
    return OK;
}

CUresult cuDeviceGetCount(int *count) {
    NEED_INIT();
    *count = device_count;
    return OK;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    NEED_INIT();
    if (ordinal < 0 || ordinal >= device_count) {
        return E_INVALID_DEVICE;
    }
    *device = ordinal;
    return OK;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count) {
        return E_INVALID_DEVICE;
    }
    if (name == NULL || len <= 0) {
        return E_INVALID_VALUE;
    }
    strncpy(name, NAMES[dev], (size_t) len - 1);
    name[len - 1] = 0;
    return OK;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count) {
        return E_INVALID_DEVICE;
    }
    *bytes = TOTAL[dev];
    return OK;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count) {
        return E_INVALID_DEVICE;
    }
    switch (attribute) {
    case 1: *value = 1024; return OK;             /* max threads per block */
    case 10: *value = 32; return OK;              /* warp size */
    case 16: *value = SMS[dev]; return OK;        /* multiprocessor count */
    case 75: *value = CC_MAJOR[dev]; return OK;
    case 76: *value = CC_MINOR[dev]; return OK;
    default: return E_INVALID_VALUE;
    }
}

/* ---- contexts ---- */

CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count) {
        return E_INVALID_DEVICE;
    }
    pthread_mutex_lock(&lock);
    contexts[dev].refs++;
    pthread_mutex_unlock(&lock);
    *ctx = &contexts[dev];
    return OK;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count) {
        return E_INVALID_DEVICE;
    }
    CUresult r = OK;
    pthread_mutex_lock(&lock);
    if (contexts[dev].refs == 0) {
        r = E_INVALID_CONTEXT;
    } else {
        contexts[dev].refs--;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuCtxSetCurrent(void *ctx) {
    NEED_INIT();
    if (ctx != NULL && ctx != &contexts[0] && ctx != &contexts[1]) {
        return E_INVALID_CONTEXT;
    }
    current = ctx;
    return OK;
}

/* ---- memory ---- */

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
    NEED_CONTEXT();
    pthread_mutex_lock(&lock);
    *total = TOTAL[current->device];
    *free_bytes = TOTAL[current->device] - used[current->device];
    pthread_mutex_unlock(&lock);
    return OK;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t size) {
    NEED_CONTEXT();
    if (size == 0) {
        return E_INVALID_VALUE;
    }
    int dev = current->device;
    pthread_mutex_lock(&lock);
    if (size > TOTAL[dev] - used[dev]) {
        pthread_mutex_unlock(&lock);
        return E_OUT_OF_MEMORY;
    }
    void *p = malloc(size);
    if (p == NULL) {
        pthread_mutex_unlock(&lock);
        return E_OUT_OF_MEMORY;
    }
    add_block(p, size, dev);
    pthread_mutex_unlock(&lock);
    *dptr = (CUdeviceptr) (uintptr_t) p;
    return OK;
}

CUresult cuMemFree_v2(CUdeviceptr dptr) {
    NEED_CONTEXT();
    pthread_mutex_lock(&lock);
    int found = remove_block((void *) (uintptr_t) dptr, 0);
    pthread_mutex_unlock(&lock);
    return found ? OK : E_INVALID_VALUE;
}

CUresult cuMemHostAlloc(void **p, size_t size, unsigned int flags) {
    NEED_CONTEXT();
    if (size == 0 || (flags & ~7u) != 0) {
        return E_INVALID_VALUE;
    }
    void *m = malloc(size);
    if (m == NULL) {
        return E_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&lock);
    add_block(m, size, -1);
    pthread_mutex_unlock(&lock);
    *p = m;
    return OK;
}

CUresult cuMemFreeHost(void *p) {
    NEED_CONTEXT();
    pthread_mutex_lock(&lock);
    int found = remove_block(p, 1);
    pthread_mutex_unlock(&lock);
    return found ? OK : E_INVALID_VALUE;
}

/* ---- streams and events ---- */

struct stream {
    unsigned int flags;
    long ops;
};
static long live_streams, live_events;

CUresult cuStreamCreate(void **stream, unsigned int flags) {
    NEED_CONTEXT();
    if (flags > 1) {
        return E_INVALID_VALUE;
    }
    struct stream *s = calloc(1, sizeof *s);
    s->flags = flags;
    *stream = s;
    __atomic_add_fetch(&live_streams, 1, __ATOMIC_SEQ_CST);
    return OK;
}

CUresult cuStreamDestroy_v2(void *stream) {
    NEED_INIT();
    if (stream == NULL) {
        return E_INVALID_HANDLE;
    }
    free(stream);
    __atomic_sub_fetch(&live_streams, 1, __ATOMIC_SEQ_CST);
    return OK;
}

CUresult cuStreamSynchronize(void *stream) {
    NEED_CONTEXT();
    (void) stream;
    return OK;
}

static void count_op(void *stream) {
    if (stream != NULL) {
        ((struct stream *) stream)->ops++;
    }
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
    NEED_CONTEXT();
    if (!device_range(dst, n)) {
        return E_INVALID_VALUE;
    }
    memcpy((void *) (uintptr_t) dst, src, n);
    return OK;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
    NEED_CONTEXT();
    if (!device_range(src, n)) {
        return E_INVALID_VALUE;
    }
    memcpy(dst, (const void *) (uintptr_t) src, n);
    return OK;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *stream) {
    CUresult r = cuMemcpyHtoD_v2(dst, src, n);
    if (r == OK) {
        count_op(stream);
    }
    return r;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *stream) {
    CUresult r = cuMemcpyDtoH_v2(dst, src, n);
    if (r == OK) {
        count_op(stream);
    }
    return r;
}

struct event {
    unsigned int flags;
    long tick; /* 0 until recorded */
};
static long ticks;

CUresult cuEventCreate(void **event, unsigned int flags) {
    NEED_CONTEXT();
    if (flags > 7) {
        return E_INVALID_VALUE;
    }
    struct event *e = calloc(1, sizeof *e);
    e->flags = flags;
    *event = e;
    __atomic_add_fetch(&live_events, 1, __ATOMIC_SEQ_CST);
    return OK;
}

CUresult cuEventRecord(void *event, void *stream) {
    NEED_CONTEXT();
    if (event == NULL) {
        return E_INVALID_HANDLE;
    }
    ((struct event *) event)->tick = __atomic_add_fetch(&ticks, 1, __ATOMIC_SEQ_CST);
    count_op(stream);
    return OK;
}

CUresult cuEventSynchronize(void *event) {
    NEED_CONTEXT();
    return event == NULL ? E_INVALID_HANDLE : OK;
}

CUresult cuStreamWaitEvent(void *stream, void *event, unsigned int flags) {
    NEED_CONTEXT();
    if (event == NULL || flags > 1) {
        return E_INVALID_HANDLE;
    }
    count_op(stream);
    return OK;
}

/* 1.5 ms per recording between the two events. */
CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
    NEED_CONTEXT();
    struct event *s = start, *e = end;
    if (s == NULL || e == NULL || (s->flags & 2) || (e->flags & 2)) {
        return E_INVALID_HANDLE;
    }
    if (s->tick == 0 || e->tick == 0) {
        return E_NOT_READY;
    }
    *ms = 1.5f * (float) (e->tick - s->tick);
    return OK;
}

CUresult cuEventDestroy_v2(void *event) {
    NEED_INIT();
    if (event == NULL) {
        return E_INVALID_HANDLE;
    }
    free(event);
    __atomic_sub_fetch(&live_events, 1, __ATOMIC_SEQ_CST);
    return OK;
}

/* ---- modules and launches ---- */

struct module {
    char image[256];
    int from_ptx;
};
struct function {
    struct module *module;
    char name[64];
    int (*run)(unsigned int, unsigned int, void **); /* a kernel of the fake_load_kernels library */
};
static void *kernel_library;
static long live_modules;
static char last_image[256];
static int last_jit_options;

struct launch {
    char function[64];
    unsigned int dims[6];
    unsigned int shared;
    void *stream;
    unsigned long long out, a, b, k;
    unsigned int n;
    int count;
};
static struct launch last_launch;

static CUresult load(void **module, const void *image, int from_ptx) {
    NEED_CONTEXT();
    if (image == NULL) {
        return E_INVALID_VALUE;
    }
    const char *text = image;
    if (strncmp(text, "fake", 4) != 0 && strncmp(text, "//", 2) != 0) {
        return E_INVALID_IMAGE;
    }
    struct module *m = calloc(1, sizeof *m);
    strncpy(m->image, text, sizeof m->image - 1);
    m->from_ptx = from_ptx;
    pthread_mutex_lock(&lock);
    memcpy(last_image, m->image, sizeof last_image);
    live_modules++;
    pthread_mutex_unlock(&lock);
    *module = m;
    return OK;
}

CUresult cuModuleLoadData(void **module, const void *image) {
    return load(module, image, 0);
}

/* Options 5 and 6 are the error log buffer and its size; a PTX text that contains "syntax error"
   fails with CUDA_ERROR_INVALID_PTX and a line in that buffer. */
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned int n, int *options, void **values) {
    NEED_CONTEXT();
    char *log = NULL;
    size_t log_size = 0;
    for (unsigned int i = 0; i < n; i++) {
        if (options[i] == 5) {
            log = values[i];
        } else if (options[i] == 6) {
            log_size = (size_t) (uintptr_t) values[i];
        }
    }
    last_jit_options = (int) n;
    if (image != NULL && strstr(image, "syntax error") != NULL) {
        if (log != NULL && log_size > 0) {
            strncpy(log, "fake ptxas: line 1: syntax error in the module", log_size - 1);
            log[log_size - 1] = 0;
        }
        return E_INVALID_PTX;
    }
    return load(module, image, 1);
}

CUresult cuModuleUnload(void *module) {
    NEED_INIT();
    if (module == NULL) {
        return E_INVALID_HANDLE;
    }
    free(module);
    pthread_mutex_lock(&lock);
    live_modules--;
    pthread_mutex_unlock(&lock);
    return OK;
}

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
    NEED_CONTEXT();
    if (module == NULL) {
        return E_INVALID_HANDLE;
    }
    int (*run)(unsigned int, unsigned int, void **) = NULL;
    if (strcmp(name, "vec_add_u32") != 0) {
        char symbol[128] = "fake_kernel_";
        strncat(symbol, name, sizeof symbol - strlen(symbol) - 1);
        if (kernel_library != NULL) {
            *(void **) &run = dlsym(kernel_library, symbol);
        }
        if (run == NULL) {
            return E_NOT_FOUND;
        }
    }
    struct function *f = calloc(1, sizeof *f); /* leaked: functions live as long as their module */
    f->run = run;
    f->module = module;
    strncpy(f->name, name, sizeof f->name - 1);
    *function = f;
    return OK;
}

CUresult cuLaunchKernel(void *function, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                        void *stream, void **params, void **extra) {
    NEED_CONTEXT();
    struct function *f = function;
    if (f == NULL) {
        return E_INVALID_HANDLE;
    }
    if (params == NULL || extra != NULL || gx * gy * gz == 0 || bx * by * bz == 0 || bx * by * bz > 1024) {
        return E_INVALID_VALUE;
    }
    struct launch l;
    memset(&l, 0, sizeof l);
    strncpy(l.function, f->name, sizeof l.function - 1);
    l.dims[0] = gx; l.dims[1] = gy; l.dims[2] = gz;
    l.dims[3] = bx; l.dims[4] = by; l.dims[5] = bz;
    l.shared = shared;
    l.stream = stream;
    if (f->run != NULL) {
        if (gy * gz * by * bz != 1 || f->run(gx, bx, params) != 0) {
            return E_INVALID_VALUE;
        }
        count_op(stream);
        pthread_mutex_lock(&lock);
        l.count = last_launch.count + 1;
        last_launch = l;
        pthread_mutex_unlock(&lock);
        return OK;
    }
    l.out = *(unsigned long long *) params[0];
    l.a = *(unsigned long long *) params[1];
    l.b = *(unsigned long long *) params[2];
    l.n = *(unsigned int *) params[3];
    l.k = *(unsigned long long *) params[4];
    unsigned long long threads = (unsigned long long) gx * bx;
    unsigned long long count = l.n < threads ? l.n : threads;
    if (!device_range(l.out, count * 4) || !device_range(l.a, count * 4) || !device_range(l.b, count * 4)) {
        return E_INVALID_VALUE; /* the real driver would report an illegal address later */
    }
    uint32_t *out = (uint32_t *) (uintptr_t) l.out;
    const uint32_t *a = (const uint32_t *) (uintptr_t) l.a;
    const uint32_t *b = (const uint32_t *) (uintptr_t) l.b;
    for (unsigned long long i = 0; i < count; i++) {
        out[i] = a[i] + b[i] + (uint32_t) l.k;
    }
    count_op(stream);
    pthread_mutex_lock(&lock);
    l.count = last_launch.count + 1;
    last_launch = l;
    pthread_mutex_unlock(&lock);
    return OK;
}

/* ---- for the tests: state and failure injection ---- */

int fake_load_kernels(const char *path) {
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        return 1;
    }
    kernel_library = lib;
    return 0;
}
void fake_set_init_result(int result) { init_result = result; }
void fake_set_device_count(int count) { device_count = count < 0 ? 0 : count > MAX_DEVICES ? MAX_DEVICES : count; }
long fake_live_device_allocations(void) { return live_device; }
long fake_live_pinned_allocations(void) { return live_pinned; }
long fake_live_streams(void) { return live_streams; }
long fake_live_events(void) { return live_events; }
long fake_live_modules(void) { return live_modules; }
int fake_primary_refs(int device) { return device >= 0 && device < MAX_DEVICES ? contexts[device].refs : -1; }
long fake_stream_ops(void *stream) { return stream == NULL ? -1 : ((struct stream *) stream)->ops; }
const char *fake_last_image(void) { return last_image; }
int fake_last_jit_options(void) { return last_jit_options; }
int fake_launch_count(void) { return last_launch.count; }
const char *fake_last_launch_function(void) { return last_launch.function; }
unsigned int fake_last_launch_dim(int i) { return i >= 0 && i < 6 ? last_launch.dims[i] : 0; }
unsigned int fake_last_launch_shared(void) { return last_launch.shared; }
void *fake_last_launch_stream(void) { return last_launch.stream; }
unsigned long long fake_last_launch_param(int i) {
    switch (i) {
    case 0: return last_launch.out;
    case 1: return last_launch.a;
    case 2: return last_launch.b;
    case 3: return last_launch.n;
    case 4: return last_launch.k;
    default: return 0;
    }
}

/*
 * A stand-in for libcuda.so.1 used by the tests of dev.proofline.cuda on machines without a GPU.
 *
 * It implements, on the host, the subset of the driver API that CudaDriver binds: two devices with
 * fixed names, memory sizes and attributes (the compute capability can be changed); "device" memory is
 * malloc'd host memory whose address is the CUdeviceptr; copies are memcpy. Streams keep their async
 * work as the GPU would, in order, and do it only when they must: async copies, event recordings and
 * waits on events are queued on their stream and run when the stream is synchronized, when an event
 * recorded on it is synchronized or waited for by another stream's work that runs, and before a kernel
 * launched on it (which then runs at once, on the calling thread). So work on one stream that reads
 * what another stream writes sees it only after a cuStreamWaitEvent on an event recorded after the
 * write, and host memory read or reused before the stream that copies it is synchronized shows the
 * fault, as on a GPU. A wait on an event never recorded is a no-op (as in CUDA) and is counted.
 * Freeing memory or destroying an event first finishes every stream's queued work. Events count
 * recordings and report 1.5 ms per recording between them. Allocating more than a device's free memory
 * fails with CUDA_ERROR_OUT_OF_MEMORY. Calls other than cuInit, cuDriverGetVersion and the error-string
 * ones fail with CUDA_ERROR_NOT_INITIALIZED before cuInit, and the ones that need a context fail with
 * CUDA_ERROR_INVALID_CONTEXT unless the calling thread has made one current. Launches are counted per
 * device, with the most that ran on one device at once.
 *
 * One kernel exists in every module: "vec_add_u32(u32 *out, const u32 *a, const u32 *b, u32 n,
 * u64 k)", which sets out[i] = a[i] + b[i] + (u32) k for each i < min(n, grid.x * block.x). Module
 * images, launches and the live allocations are recorded and can be read through the fake_*
 * functions at the end, which also inject failures. fake_load_kernels(path) adds the kernels of a
 * host library: a function named <name> of a module is then the library's
 * "int fake_kernel_<name>(unsigned grid_x, unsigned block_x, void **params)", run at the launch. The
 * environment variable PROOFLINE_FAKE_CUDA_KERNELS names such a library to load at cuInit. Module
 * images start with "fake", "//" (PTX) or a fatbin's magic number.
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
static int cc_major[MAX_DEVICES] = {9, 8};
static int cc_minor[MAX_DEVICES] = {0, 6};
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
static long long live_pinned_bytes;
static void finish_all_streams_locked(void);

static void add_block(void *p, size_t size, int device) {
    struct block *b = malloc(sizeof *b);
    b->p = p;
    b->size = size;
    b->device = device;
    b->next = blocks;
    blocks = b;
    if (device < 0) {
        live_pinned++;
        live_pinned_bytes += (long long) size;
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
                live_pinned_bytes -= (long long) b->size;
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

/* Whether [p, p + n) lies inside one live device block; the lock held. */
static int device_range_locked(CUdeviceptr p, size_t n) {
    for (struct block *b = blocks; b; b = b->next) {
        uintptr_t s = (uintptr_t) b->p;
        if (b->device >= 0 && p >= s && p + n <= s + b->size) {
            return 1;
        }
    }
    return 0;
}

/* Whether [p, p + n) lies inside one live device block. */
static int device_range(CUdeviceptr p, size_t n) {
    pthread_mutex_lock(&lock);
    int ok = device_range_locked(p, n);
    pthread_mutex_unlock(&lock);
    return ok;
}

int fake_load_kernels(const char *path);
static void *kernel_library_handle(void);

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
    const char *kernels = getenv("PROOFLINE_FAKE_CUDA_KERNELS");
    if (kernels != NULL && *kernels != 0 && kernel_library_handle() == NULL) {
        fake_load_kernels(kernels);
    }
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
    case 75: *value = cc_major[dev]; return OK;
    case 76: *value = cc_minor[dev]; return OK;
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
    finish_all_streams_locked();
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
    finish_all_streams_locked();
    int found = remove_block(p, 1);
    pthread_mutex_unlock(&lock);
    return found ? OK : E_INVALID_VALUE;
}

/* ---- streams and events ----
 *
 * A stream's async work is a queue of ops (copies, event recordings, waits), run in order by
 * run_queue_locked when the stream must have done it. Everything here holds the global lock. */

enum { OP_COPY = 1, OP_RECORD = 2, OP_WAIT = 3 };

struct event;
struct stream;

struct op {
    int kind;
    void *dst;               /* copy */
    const void *src;
    size_t n;
    struct event *event;     /* record, wait */
    long gen;                /* the recording it records or waits for */
    struct stream *from;     /* wait: the stream that recording was queued on */
    struct op *next;
};

struct stream {
    unsigned int flags;
    long ops;
    struct op *head, *tail;
    struct stream *next_live;
};
static struct stream *live_stream_list;
static long live_streams, live_events, waits_on_unrecorded;

struct event {
    unsigned int flags;
    long tick;               /* 0 until recorded */
    long gen;                /* recordings queued */
    long done;               /* recordings reached */
    struct stream *stream;   /* of the latest recording */
};
static long ticks;

static void enqueue_locked(struct stream *s, struct op *o) {
    o->next = NULL;
    if (s->tail) {
        s->tail->next = o;
    } else {
        s->head = o;
    }
    s->tail = o;
}

static void run_queue_locked(struct stream *s, struct event *until, long until_gen);

/* Runs the queue of the stream an event's recording `gen` was queued on, up to that recording. */
static void reach_locked(struct event *e, long gen, struct stream *from) {
    if (e->done >= gen || from == NULL) {
        return;
    }
    run_queue_locked(from, e, gen);
}

/* Runs s's queued ops in order: all of them, or up to and including the recording until_gen of until. */
static void run_queue_locked(struct stream *s, struct event *until, long until_gen) {
    while (s->head != NULL) {
        struct op *o = s->head;
        s->head = o->next;
        if (s->head == NULL) {
            s->tail = NULL;
        }
        int stop = 0;
        switch (o->kind) {
        case OP_COPY:
            memcpy(o->dst, o->src, o->n);
            break;
        case OP_RECORD:
            if (o->event->done < o->gen) {
                o->event->done = o->gen;
            }
            stop = o->event == until && o->gen == until_gen;
            break;
        case OP_WAIT:
            reach_locked(o->event, o->gen, o->from);
            break;
        }
        free(o);
        if (stop) {
            return;
        }
    }
}

static void finish_all_streams_locked(void) {
    for (struct stream *s = live_stream_list; s; s = s->next_live) {
        run_queue_locked(s, NULL, 0);
    }
}

CUresult cuStreamCreate(void **stream, unsigned int flags) {
    NEED_CONTEXT();
    if (flags > 1) {
        return E_INVALID_VALUE;
    }
    struct stream *s = calloc(1, sizeof *s);
    s->flags = flags;
    pthread_mutex_lock(&lock);
    s->next_live = live_stream_list;
    live_stream_list = s;
    live_streams++;
    pthread_mutex_unlock(&lock);
    *stream = s;
    return OK;
}

/* Work already queued still completes (here: now). */
CUresult cuStreamDestroy_v2(void *stream) {
    NEED_INIT();
    if (stream == NULL) {
        return E_INVALID_HANDLE;
    }
    struct stream *s = stream;
    pthread_mutex_lock(&lock);
    run_queue_locked(s, NULL, 0);
    for (struct stream **at = &live_stream_list; *at; at = &(*at)->next_live) {
        if (*at == s) {
            *at = s->next_live;
            break;
        }
    }
    live_streams--;
    pthread_mutex_unlock(&lock);
    free(s);
    return OK;
}

CUresult cuStreamSynchronize(void *stream) {
    NEED_CONTEXT();
    pthread_mutex_lock(&lock);
    if (stream == NULL) {
        finish_all_streams_locked();
    } else {
        run_queue_locked(stream, NULL, 0);
    }
    pthread_mutex_unlock(&lock);
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

/* An async copy: checked now, done when its stream gets to it (at once on the NULL stream). */
static CUresult copy_async(void *dst, const void *src, size_t n, CUdeviceptr device_side, void *stream) {
    NEED_CONTEXT();
    pthread_mutex_lock(&lock);
    if (!device_range_locked(device_side, n)) {
        pthread_mutex_unlock(&lock);
        return E_INVALID_VALUE;
    }
    if (stream == NULL) {
        memcpy(dst, src, n);
    } else {
        struct op *o = calloc(1, sizeof *o);
        o->kind = OP_COPY;
        o->dst = dst;
        o->src = src;
        o->n = n;
        enqueue_locked(stream, o);
        count_op(stream);
    }
    pthread_mutex_unlock(&lock);
    return OK;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *stream) {
    return copy_async((void *) (uintptr_t) dst, src, n, dst, stream);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *stream) {
    return copy_async(dst, (const void *) (uintptr_t) src, n, src, stream);
}

CUresult cuEventCreate(void **event, unsigned int flags) {
    NEED_CONTEXT();
    if (flags > 7) {
        return E_INVALID_VALUE;
    }
    struct event *e = calloc(1, sizeof *e);
    e->flags = flags;
    *event = e;
    pthread_mutex_lock(&lock);
    live_events++;
    pthread_mutex_unlock(&lock);
    return OK;
}

CUresult cuEventRecord(void *event, void *stream) {
    NEED_CONTEXT();
    if (event == NULL) {
        return E_INVALID_HANDLE;
    }
    struct event *e = event;
    pthread_mutex_lock(&lock);
    e->tick = ++ticks;
    long gen = ++e->gen;
    e->stream = stream;
    if (stream == NULL) {
        e->done = gen;
    } else {
        struct op *o = calloc(1, sizeof *o);
        o->kind = OP_RECORD;
        o->event = e;
        o->gen = gen;
        enqueue_locked(stream, o);
        count_op(stream);
    }
    pthread_mutex_unlock(&lock);
    return OK;
}

CUresult cuEventSynchronize(void *event) {
    NEED_CONTEXT();
    if (event == NULL) {
        return E_INVALID_HANDLE;
    }
    struct event *e = event;
    pthread_mutex_lock(&lock);
    reach_locked(e, e->gen, e->stream);
    pthread_mutex_unlock(&lock);
    return OK;
}

CUresult cuStreamWaitEvent(void *stream, void *event, unsigned int flags) {
    NEED_CONTEXT();
    if (event == NULL || flags > 1) {
        return E_INVALID_HANDLE;
    }
    struct event *e = event;
    pthread_mutex_lock(&lock);
    if (e->gen == 0) {
        waits_on_unrecorded++; /* CUDA: nothing to wait for */
    } else if (stream == NULL) {
        reach_locked(e, e->gen, e->stream);
    } else {
        struct op *o = calloc(1, sizeof *o);
        o->kind = OP_WAIT;
        o->event = e;
        o->gen = e->gen;
        o->from = e->stream;
        enqueue_locked(stream, o);
    }
    count_op(stream);
    pthread_mutex_unlock(&lock);
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

/* Queued work that records or waits for the event is finished first. */
CUresult cuEventDestroy_v2(void *event) {
    NEED_INIT();
    if (event == NULL) {
        return E_INVALID_HANDLE;
    }
    pthread_mutex_lock(&lock);
    finish_all_streams_locked();
    live_events--;
    pthread_mutex_unlock(&lock);
    free(event);
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

/* Kernels running on each device now, the most that ever ran on one at once, and launches per device. */
static int running_on[MAX_DEVICES], most_on[MAX_DEVICES];
static long launches_on[MAX_DEVICES];

static void enter_device(int dev) {
    pthread_mutex_lock(&lock);
    running_on[dev]++;
    launches_on[dev]++;
    if (running_on[dev] > most_on[dev]) {
        most_on[dev] = running_on[dev];
    }
    pthread_mutex_unlock(&lock);
}

static void leave_device(int dev) {
    pthread_mutex_lock(&lock);
    running_on[dev]--;
    pthread_mutex_unlock(&lock);
}

static CUresult load(void **module, const void *image, int from_ptx) {
    NEED_CONTEXT();
    if (image == NULL) {
        return E_INVALID_VALUE;
    }
    const char *text = image;
    static const unsigned char fatbin[4] = {0x50, 0xed, 0x55, 0xba};
    int is_fatbin = memcmp(image, fatbin, 4) == 0;
    if (strncmp(text, "fake", 4) != 0 && strncmp(text, "//", 2) != 0 && !is_fatbin) {
        return E_INVALID_IMAGE;
    }
    struct module *m = calloc(1, sizeof *m);
    strncpy(m->image, is_fatbin ? "fatbin" : text, sizeof m->image - 1);
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
    int dev = current->device;
    pthread_mutex_lock(&lock);
    if (stream != NULL) {
        run_queue_locked(stream, NULL, 0); /* the stream's earlier work first */
    }
    pthread_mutex_unlock(&lock);
    struct launch l;
    memset(&l, 0, sizeof l);
    strncpy(l.function, f->name, sizeof l.function - 1);
    l.dims[0] = gx; l.dims[1] = gy; l.dims[2] = gz;
    l.dims[3] = bx; l.dims[4] = by; l.dims[5] = bz;
    l.shared = shared;
    l.stream = stream;
    if (f->run != NULL) {
        if (gy * gz * by * bz != 1) {
            return E_INVALID_VALUE;
        }
        enter_device(dev);
        int failed = f->run(gx, bx, params);
        leave_device(dev);
        if (failed) {
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
    enter_device(dev);
    for (unsigned long long i = 0; i < count; i++) {
        out[i] = a[i] + b[i] + (uint32_t) l.k;
    }
    leave_device(dev);
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
static void *kernel_library_handle(void) { return kernel_library; }
/* Kernels looked up from now on are the fake's own only (functions already looked up keep theirs). */
void fake_unload_kernels(void) { kernel_library = NULL; }
void fake_set_compute_capability(int device, int major, int minor) {
    if (device >= 0 && device < MAX_DEVICES) {
        cc_major[device] = major;
        cc_minor[device] = minor;
    }
}
long long fake_live_pinned_bytes(void) { return live_pinned_bytes; }
long long fake_device_used(int device) { return device >= 0 && device < MAX_DEVICES ? (long long) used[device] : -1; }
long fake_waits_on_unrecorded(void) { return waits_on_unrecorded; }
long fake_device_launches(int device) { return device >= 0 && device < MAX_DEVICES ? launches_on[device] : -1; }
int fake_most_running_on(int device) { return device >= 0 && device < MAX_DEVICES ? most_on[device] : -1; }
/* Operations queued on a stream and not yet done. */
long fake_stream_pending(void *stream) {
    long n = 0;
    pthread_mutex_lock(&lock);
    for (struct op *o = stream == NULL ? NULL : ((struct stream *) stream)->head; o; o = o->next) {
        n++;
    }
    pthread_mutex_unlock(&lock);
    return n;
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

"""GPU modules through the vendor's driver API: CUDA for sm_*, HIP for gfx9*.

Both APIs have the same shape (load an image, find functions, read a
global, launch with `kernelParams`), so one backend serves both over a
table of entry-point names. Launches go on PyTorch's current stream when
torch is loaded, else on the default stream; the module is loaded into
the current context (torch's, once torch has touched the device), or the
device's primary context.
"""

import ctypes
import sys

from .errors import MlaError
from .graph import CallGraph, KernelNodeParams
from .manifest import ABI_RECORD_SYMBOL, check_abi_record, read_regular_file


class _Api:
    """One vendor's library and the names of its entry points."""

    def __init__(self, vendor, libraries, prefix, names):
        self.vendor, self.libraries, self.prefix = vendor, libraries, prefix
        self.names = names


CUDA = _Api("CUDA", ["libcuda.so.1", "libcuda.so"], "cu", {
    "init": "cuInit", "device_get": "cuDeviceGet",
    "ctx_get_current": "cuCtxGetCurrent", "ctx_set_current": "cuCtxSetCurrent",
    "primary_ctx_retain": "cuDevicePrimaryCtxRetain",
    "module_load": "cuModuleLoadData", "module_unload": "cuModuleUnload",
    "get_function": "cuModuleGetFunction", "get_global": "cuModuleGetGlobal_v2",
    "memcpy_dtoh": "cuMemcpyDtoH_v2", "func_set_attribute": "cuFuncSetAttribute",
    "launch": "cuLaunchKernel", "error_string": "cuGetErrorString",
    "occupancy": "cuOccupancyMaxActiveBlocksPerMultiprocessor",
    "device_attribute": "cuDeviceGetAttribute",
    # The graph API (mla.graph). The _v2 entry points take
    # CUDA_KERNEL_NODE_PARAMS_v2; older drivers have only the first ones.
    "graph_create": "cuGraphCreate",
    "graph_add_kernel_node": ("cuGraphAddKernelNode_v2",
                              "cuGraphAddKernelNode"),
    "graph_kernel_node_set_params": ("cuGraphKernelNodeSetParams_v2",
                                     "cuGraphKernelNodeSetParams"),
    "graph_instantiate": "cuGraphInstantiateWithFlags",
    "graph_exec_kernel_node_set_params": (
        "cuGraphExecKernelNodeSetParams_v2", "cuGraphExecKernelNodeSetParams"),
    "graph_launch": "cuGraphLaunch",
    "graph_exec_destroy": "cuGraphExecDestroy",
    "graph_destroy": "cuGraphDestroy",
})
HIP = _Api("HIP", ["libamdhip64.so", "libamdhip64.so.6"], "hip", {
    "init": "hipInit", "device_get": "hipDeviceGet",
    "ctx_get_current": None, "ctx_set_current": None, "primary_ctx_retain": None,
    "module_load": "hipModuleLoadData", "module_unload": "hipModuleUnload",
    "get_function": "hipModuleGetFunction", "get_global": "hipModuleGetGlobal",
    "memcpy_dtoh": "hipMemcpyDtoH", "func_set_attribute": "hipFuncSetAttribute",
    "launch": "hipModuleLaunchKernel", "error_string": "hipGetErrorString",
    "occupancy": "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
    "device_attribute": None,
    # hipGraph's kernel nodes take another parameter layout; not used yet.
    "graph_create": None,
})

# CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT.
_MULTIPROCESSOR_COUNT = 16
# cudaFuncAttributeMaxDynamicSharedMemorySize, the same value in HIP.
_MAX_DYNAMIC_SHARED = 8
# Dynamic shared memory a launch gets without opting in.
_DEFAULT_SHARED_LIMIT = 48 * 1024
_ELF_MAGIC = b"\x7fELF"
_FATBIN_MAGIC = b"\x50\xed\x55\xba"


def _open_library(api):
    errors = []
    for name in api.libraries:
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise MlaError(f"the {api.vendor} driver is not available "
                   f"({'; '.join(errors)})")


def _torch_cuda():
    """torch's CUDA (or ROCm) module where torch is loaded and has a GPU."""
    torch = sys.modules.get("torch")
    return torch.cuda if torch is not None and torch.cuda.is_available() else None


def _stream_getter(device):
    """A function giving torch's current stream on `device` as an integer
    (0, the default stream, without torch): the raw query where torch has
    it, which costs far less than a Stream object per launch."""
    cuda = _torch_cuda()
    if cuda is None:
        return lambda: 0
    raw = getattr(sys.modules["torch"]._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return lambda: raw(device)
    return lambda: cuda.current_stream(device).cuda_stream


class DriverBackend:
    def __init__(self, manifest, api):
        self.api = api
        self.lib = _open_library(api)
        cuda = _torch_cuda()
        self.device = ("cuda", cuda.current_device() if cuda else 0)
        self._call("init", ctypes.c_uint(0))
        self._use_a_context()
        image = read_regular_file(manifest.binary, "binary")
        if not image.startswith((_ELF_MAGIC, _FATBIN_MAGIC)):
            image += b"\0"  # PTX text, which the driver wants NUL-terminated
        self.module = ctypes.c_void_p()
        self._call("module_load", ctypes.byref(self.module), image,
                   what=manifest.binary)
        self._launch = getattr(self.lib, api.names["launch"])
        self._launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [
            ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_void_p)]
        self._stream = None
        self._graphs = None
        self.graph_error = None  # why graph() gave None, where it did
        self.kernels = {}
        for kernel in manifest.kernels:
            function = ctypes.c_void_p()
            self._call("get_function", ctypes.byref(function), self.module,
                       kernel.symbol.encode(), what=f"kernel '{kernel.symbol}'")
            if kernel.dynamic_lds_bytes > _DEFAULT_SHARED_LIMIT:
                self._call("func_set_attribute", function, _MAX_DYNAMIC_SHARED,
                           ctypes.c_int(kernel.dynamic_lds_bytes),
                           what=f"kernel '{kernel.symbol}'")
            self.kernels[kernel.symbol] = function
        check_abi_record(manifest, self._read_record(manifest.binary))
        self._units = self._processors(manifest)

    def _processors(self, manifest):
        """Multiprocessors (CUDA) or compute units (HIP) of the device; HIP's
        come from the chip table, through the manifest, as mla-run's do."""
        if self.api.names["device_attribute"] is None:
            units = manifest.chip.get("compute_units")
            if units is None:
                raise MlaError(f"{manifest.path}: no chip.compute_units; "
                               "recompile with this mla-compile")
            return units
        device, count = ctypes.c_int(), ctypes.c_int()
        self._call("device_get", ctypes.byref(device), self.device[1])
        self._call("device_attribute", ctypes.byref(count),
                   _MULTIPROCESSOR_COUNT, device)
        return count.value

    def parallelism(self, kernel):
        """Programs of `kernel` the device runs at once: its processors
        times the programs the occupancy API finds resident on each."""
        resident = ctypes.c_int()
        x, y, z = kernel.workgroup_size
        try:
            self._call("occupancy", ctypes.byref(resident),
                       self.kernels[kernel.symbol], ctypes.c_int(x * y * z),
                       ctypes.c_size_t(kernel.dynamic_lds_bytes))
        except MlaError:
            resident.value = 1
        return self._units * max(resident.value, 1)

    def _error_text(self, result):
        text = ctypes.c_char_p()
        function = getattr(self.lib, self.api.names["error_string"])
        if self.api is HIP:
            function.restype = ctypes.c_char_p
            return function(result) or f"error {result}"
        if function(result, ctypes.byref(text)) != 0 or not text.value:
            return f"error {result}"
        return text.value.decode()

    def _call(self, entry, *args, what=None):
        name = self.api.names[entry]
        result = getattr(self.lib, name)(*args)
        if result != 0:
            where = f"{what}: " if what else ""
            raise MlaError(f"{where}{name}: {self._error_text(result)}")

    def _use_a_context(self):
        """torch's current context where there is one, else the primary."""
        if self.api.names["ctx_get_current"] is None:
            return  # HIP keeps a current device, not contexts
        context = ctypes.c_void_p()
        self._call("ctx_get_current", ctypes.byref(context))
        if context.value:
            return
        device = ctypes.c_int()
        self._call("device_get", ctypes.byref(device), self.device[1])
        self._call("primary_ctx_retain", ctypes.byref(context), device)
        self._call("ctx_set_current", context)

    def _read_record(self, path):
        address, size = ctypes.c_void_p(), ctypes.c_size_t()
        name = self.api.names["get_global"]
        result = getattr(self.lib, name)(ctypes.byref(address), ctypes.byref(size),
                                         self.module, ABI_RECORD_SYMBOL.encode())
        if result != 0:
            raise MlaError(f"{path}: the binary has no ABI record "
                           f"({ABI_RECORD_SYMBOL}): {self._error_text(result)}")
        record = ctypes.create_string_buffer(size.value)
        self._call("memcpy_dtoh", record, address, size, what=path)
        return record.raw.split(b"\0", 1)[0]

    def accepts(self, tensor):
        return tensor.device == self.device

    def launch(self, kernel, grid, slots):
        self.launcher(kernel, grid)(slots)

    def graph(self, launches):
        """`launches` as one mla.graph.CallGraph, or None where the driver
        has no graph API (the launches then run one by one)."""
        if self.api.names["graph_create"] is None:
            return None
        try:
            if self._graphs is None:
                self._graphs = _GraphApi(self)
            return CallGraph(self._graphs, launches)
        except MlaError as e:
            self.graph_error = str(e)
            return None

    def current_stream(self):
        if self._stream is None:
            self._stream = _stream_getter(self.device[1])
        return self._stream()

    def launcher(self, kernel, grid):
        """A function launching `kernel` on `grid` with an argument array,
        everything but the stream looked up once."""
        self.current_stream()
        launch, stream = self._launch, self._stream
        handle = self.kernels[kernel.symbol]
        dims = (*grid, *kernel.workgroup_size, kernel.dynamic_lds_bytes)

        def run(slots):
            result = launch(handle, *dims, stream(), slots, None)
            if result != 0:
                raise MlaError(f"kernel '{kernel.symbol}': "
                               f"{self.api.names['launch']}: "
                               f"{self._error_text(result)}")
        return run


class _GraphApi:
    """The driver's graph entry points (mla.graph), resolved once."""

    def __init__(self, backend):
        self._backend = backend
        self._entries = {}
        for key in ("graph_create", "graph_add_kernel_node",
                    "graph_kernel_node_set_params", "graph_instantiate",
                    "graph_exec_kernel_node_set_params", "graph_launch",
                    "graph_exec_destroy", "graph_destroy"):
            self._entries[key] = self._resolve(key)
        self._launch_name, self._launch = self._entries["graph_launch"]
        self._launch.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    def _resolve(self, key):
        names = self._backend.api.names[key]
        for name in (names,) if isinstance(names, str) else names:
            function = getattr(self._backend.lib, name, None)
            if function is not None:
                return name, function
        raise MlaError(f"the {self._backend.api.vendor} driver has no "
                       f"{names if isinstance(names, str) else names[0]}")

    def _call(self, key, *args):
        name, function = self._entries[key]
        result = function(*args)
        if result != 0:
            raise MlaError(f"{name}: {self._backend._error_text(result)}")

    def create(self):
        graph = ctypes.c_void_p()
        self._call("graph_create", ctypes.byref(graph), ctypes.c_uint(0))
        return graph.value

    def params(self, launch):
        info = launch.kernel.info
        params = KernelNodeParams()
        params.func = self._backend.kernels[info.symbol].value
        params.grid_x, params.grid_y, params.grid_z = launch.sizes
        params.block_x, params.block_y, params.block_z = info.workgroup_size
        params.shared_bytes = info.dynamic_lds_bytes
        params.kernel_params = ctypes.addressof(launch.argument_array)
        return params

    def add_kernel_node(self, graph, previous, params):
        node = ctypes.c_void_p()
        after = (ctypes.c_void_p * 1)(previous)
        self._call("graph_add_kernel_node", ctypes.byref(node),
                   ctypes.c_void_p(graph), after if previous else None,
                   ctypes.c_size_t(1 if previous else 0),
                   ctypes.byref(params))
        return node.value

    def set_node_params(self, node, params):
        self._call("graph_kernel_node_set_params", ctypes.c_void_p(node),
                   ctypes.byref(params))

    def instantiate(self, graph):
        graph_exec = ctypes.c_void_p()
        self._call("graph_instantiate", ctypes.byref(graph_exec),
                   ctypes.c_void_p(graph), ctypes.c_ulonglong(0))
        return graph_exec.value

    def set_exec_node_params(self, graph_exec, node, params):
        self._call("graph_exec_kernel_node_set_params",
                   ctypes.c_void_p(graph_exec), ctypes.c_void_p(node),
                   ctypes.byref(params))

    def launch(self, graph_exec):
        result = self._launch(graph_exec, self._backend.current_stream())
        if result != 0:
            raise MlaError(f"{self._launch_name}: "
                           f"{self._backend._error_text(result)}")

    def destroy_exec(self, graph_exec):
        self._call("graph_exec_destroy", ctypes.c_void_p(graph_exec))

    def destroy_graph(self, graph):
        self._call("graph_destroy", ctypes.c_void_p(graph))

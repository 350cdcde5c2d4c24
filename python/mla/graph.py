"""A call's kernel launches replayed as one CUDA graph.

Each launch through ctypes costs the host about 9 µs, more than short
kernels run, so a decode call of three kernels kept the device waiting.
A graph of the three, instantiated once per call signature, is one driver
call a call. Its kernels' arguments are copied into the graph when it is
instantiated or updated, so the graph is kept per set of tensor
addresses: the few sets a caller cycles through (its inputs regenerated,
the caching allocator handing back the same blocks) are each an
instantiated graph, and a new set re-points the least recently used one.
"""

import ctypes
from collections import OrderedDict

# Instantiated graphs kept per call signature.
DEFAULT_COPIES = 4


class KernelNodeParams(ctypes.Structure):
    """CUDA_KERNEL_NODE_PARAMS_v2 (cuda.h); the first ten fields are v1's."""
    _fields_ = [
        ("func", ctypes.c_void_p),
        ("grid_x", ctypes.c_uint), ("grid_y", ctypes.c_uint),
        ("grid_z", ctypes.c_uint),
        ("block_x", ctypes.c_uint), ("block_y", ctypes.c_uint),
        ("block_z", ctypes.c_uint),
        ("shared_bytes", ctypes.c_uint),
        ("kernel_params", ctypes.c_void_p),
        ("extra", ctypes.c_void_p),
        ("kern", ctypes.c_void_p),
        ("ctx", ctypes.c_void_p),
    ]


class CallGraph:
    """`launches` (mla.Launch, in order) as one graph, each kernel after the
    one before it. `graphs` is the driver's graph API (DriverBackend's
    GraphApi, or a stand-in in tests)."""

    def __init__(self, graphs, launches, copies=DEFAULT_COPIES):
        self._graphs = graphs
        self._copies = copies
        self._graph = graphs.create()
        self._nodes = []
        try:
            previous = None
            for launch in launches:
                if launch.sizes is None or 0 in launch.sizes:
                    continue  # nothing runs
                params = graphs.params(launch)
                node = graphs.add_kernel_node(self._graph, previous, params)
                self._nodes.append((node, params))
                previous = node
        except Exception:
            graphs.destroy_graph(self._graph)
            raise
        self._execs = OrderedDict()  # addresses -> instantiated graph

    def __call__(self, addresses, point):
        """Runs the launches on the stream with the tensors at `addresses`
        (a hashable tuple); `point()` re-points the launches' arguments at
        them and is called only when no graph has them yet."""
        execs = self._execs
        graph_exec = execs.get(addresses)
        if graph_exec is None:
            point()
            if len(execs) < self._copies:
                for node, params in self._nodes:
                    self._graphs.set_node_params(node, params)
                graph_exec = self._graphs.instantiate(self._graph)
            else:
                _, graph_exec = execs.popitem(last=False)
                for node, params in self._nodes:
                    self._graphs.set_exec_node_params(graph_exec, node, params)
            execs[addresses] = graph_exec
        else:
            execs.move_to_end(addresses)
        self._graphs.launch(graph_exec)

    def __del__(self):
        graphs = getattr(self, "_graphs", None)
        if graphs is None:
            return
        try:
            for graph_exec in getattr(self, "_execs", {}).values():
                graphs.destroy_exec(graph_exec)
            graphs.destroy_graph(self._graph)
        except Exception:  # the driver already gone at interpreter exit
            pass

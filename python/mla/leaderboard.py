"""`custom_kernel(data)` of the GPU MODE amd-mixed-mla task over a module.

The task passes `(q, kv_data, qo_indptr, kv_indptr, config)` (DESIGN
section 8): q bf16 [total_q, H, 576]; kv_data["bf16"] [total_kv, 1, 576];
kv_data["fp8"] = (kv [total_kv, 1, 576], scale f32 [1]); kv_data["mxfp4"]
= (kv fp4x2 [total_kv, 1, 288], E8M0 scales [rows, cols], padded); int32
indptrs on the device; config["sm_scale"]. A call decodes with the format
of the fewest bytes that both the module and kv_data have, unless
MLA_KV_FORMAT names one, planned balanced (MLA_PLAN=reproducible for
output bits that do not depend on the batch), and returns bf16
[total_q, H, 512] without waiting for the device.
"""

import os

from .decode import Decode
from .errors import MlaError

# The task's format names, fewest bytes per key first.
FORMATS = ("mxfp4", "fp8", "bf16")
FORMAT_VARIABLE = "MLA_KV_FORMAT"
PLAN_VARIABLE = "MLA_PLAN"


class Submission:
    """Decodes the task's inputs with the kernels of `module`."""

    def __init__(self, module):
        self.module = module
        self.kv_dtypes = {k.launch.get("kv_dtype")
                          for k in module.find(role="mla.partial")}
        self._decoders = {}

    def _fp8_kind(self, kv):
        """fp8 (OCP e4m3fn) or fp8_fnuz (MI300X's), from the tensor's dtype;
        a byte view takes the chip's own."""
        dtype = str(getattr(kv, "dtype", ""))
        if "fnuz" in dtype:
            return "fp8_fnuz"
        if "float8" in dtype:
            return "fp8"
        fnuz = self.module.manifest.chip.get("fp8") == "fnuz"
        return "fp8_fnuz" if fnuz else "fp8"

    def _kv_dtype(self, name, value):
        if name != "fp8":
            return name
        return self._fp8_kind(value[0] if isinstance(value, tuple) else value)

    def choose(self, kv_data):
        """The task format to decode and the module's KV dtype for it."""
        usable = [(name, self._kv_dtype(name, kv_data[name]))
                  for name in FORMATS if name in kv_data]
        usable = [(n, d) for n, d in usable if d in self.kv_dtypes]
        wanted = os.environ.get(FORMAT_VARIABLE)
        if wanted:
            for name, dtype in usable:
                if name == wanted:
                    return name, dtype
            raise MlaError(f"{FORMAT_VARIABLE}={wanted}: not one of the "
                           "formats both kv_data and the module have ("
                           f"{', '.join(n for n, _ in usable) or 'none'})")
        if not usable:
            raise MlaError(f"kv_data has {', '.join(sorted(kv_data))}; the "
                           f"module decodes "
                           f"{', '.join(sorted(map(str, self.kv_dtypes)))}")
        return usable[0]

    def __call__(self, data):
        q, kv_data, qo_indptr, kv_indptr, config = data
        # What the choice of format and decoder depends on, cheaper to look
        # up than to choose again: a call's host time is the call's time
        # for short batches.
        fp8 = kv_data.get("fp8")
        key = (os.environ.get(FORMAT_VARIABLE),
               os.environ.get(PLAN_VARIABLE, "balanced"), q.shape[1],
               tuple(kv_data), getattr(fp8[0] if isinstance(fp8, tuple)
                                       else fp8, "dtype", None))
        chosen = self._decoders.get(key)
        if chosen is None:
            name, kv_dtype = self.choose(kv_data)
            chosen = self._decoders[key] = (name, Decode(
                self.module, kv_dtype, int(q.shape[1]), plan=key[1]))
        name, decoder = chosen
        value = kv_data[name]
        kv, scale = value if isinstance(value, tuple) else (value, None)
        return decoder(q, kv, qo_indptr, kv_indptr, kv_scale=scale,
                       sm_scale=config["sm_scale"])

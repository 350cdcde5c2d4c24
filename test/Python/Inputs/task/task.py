"""A local stand-in for the amd-mixed-mla task's `task` module: the types
a submission imports (DESIGN section 8)."""

from typing import Dict, Tuple, Union

import torch

input_t = Tuple[torch.Tensor, Dict[str, Union[torch.Tensor, Tuple[torch.Tensor, torch.Tensor]]],
                torch.Tensor, torch.Tensor, Dict[str, Union[int, float]]]
output_t = torch.Tensor

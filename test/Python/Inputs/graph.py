"""Drives mla.graph.CallGraph over a stand-in graph API that prints each
driver call: the nodes chained in launch order (a launch of no programs
left out), a graph instantiated per new set of addresses up to the copies
kept, a hit launching alone, then the least recently used graph
re-pointed. Needs no GPU.
"""

from mla.graph import CallGraph


class Launch:
    def __init__(self, name, sizes):
        self.name, self.sizes = name, sizes


class Graphs:
    """The graph API's calls, printed; handles are numbered strings."""

    def __init__(self):
        self.count = 0

    def _handle(self, kind):
        self.count += 1
        return f"{kind}{self.count}"

    def create(self):
        graph = self._handle("graph")
        print("create", graph)
        return graph

    def params(self, launch):
        return launch.name

    def add_kernel_node(self, graph, previous, params):
        node = self._handle("node")
        print("add", node, params, "after", previous)
        return node

    def set_node_params(self, node, params):
        print("set", node, params)

    def instantiate(self, graph):
        graph_exec = self._handle("exec")
        print("instantiate", graph_exec)
        return graph_exec

    def set_exec_node_params(self, graph_exec, node, params):
        print("set", graph_exec, node, params)

    def launch(self, graph_exec):
        print("launch", graph_exec)

    def destroy_exec(self, graph_exec):
        print("destroy", graph_exec)

    def destroy_graph(self, graph):
        print("destroy", graph)


def main():
    launches = [Launch("plan", (5, 1, 1)), Launch("empty", (0, 1, 1)),
                Launch("partial", (40, 1, 1)), Launch("combine", (8, 1, 1))]
    graph = CallGraph(Graphs(), launches, copies=2)
    for addresses in ["A", "B", "A", "A", "C", "B"]:
        print("call", addresses)
        graph((addresses,), lambda: print("point", addresses))
    del graph


if __name__ == "__main__":
    main()

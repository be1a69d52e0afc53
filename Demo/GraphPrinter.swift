import Modules

/// Prints the app's modules and keys. Router cannot export its graph yet, so this reads each
/// module's hand-written ``ModuleSummary``.
enum GraphPrinter {
    static func tree(_ modules: [any DescribedModule]) -> String {
        var lines = ["Bookshop (\(modules.count) modules)"]
        for (index, module) in modules.enumerated() {
            let summary = module.summary
            let last = index == modules.count - 1
            lines.append((last ? "└── " : "├── ") + summary.name)
            let children =
                summary.provides.map { "provides \($0.key) [\($0.scope)]" } + summary.uses.map { "uses \($0)" }
            for (childIndex, child) in children.enumerated() {
                let childLast = childIndex == children.count - 1
                lines.append((last ? "    " : "│   ") + (childLast ? "└── " : "├── ") + child)
            }
        }
        return lines.joined(separator: "\n")
    }

    static func dot(_ modules: [any DescribedModule]) -> String {
        var lines = ["digraph Bookshop {", "  rankdir=LR;", "  node [shape=box];"]
        for module in modules {
            let summary = module.summary
            lines.append("  \"\(summary.name)\" [style=bold];")
            for provided in summary.provides {
                lines.append("  \"\(summary.name)\" -> \"\(provided.key)\" [label=\"\(provided.scope)\"];")
            }
            for used in summary.uses {
                lines.append("  \"\(summary.name)\" -> \"\(used)\" [style=dashed, label=\"uses\"];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}

/// Finds every problem in a set of registrations before anything is built.
struct Validator {
    let table: SealedTable
    let assembly: RouteRegistry.Assembly?

    /// Every problem found. Checks that would find nothing to look at (see ``SealedTable/Features``) are
    /// skipped rather than run over every registration.
    func report() -> ValidationReport {
        let features = table.features
        var problems: [RouteError] = []
        if features.identifiers { problems += duplicateIdentifiers() }
        if features.configurations { problems += configurationMismatches() }
        if table.hasRepeatedKeys {
            problems += collidingNames()
            problems += ambiguousDefaults()
            problems += accidentalDuplicates()
        }
        if features.dependencies {
            problems += declaredDependencyProblems()
            problems += initializerCycles()
            problems += captiveDependencies()
            problems += resettableCaptives()
            problems += synchronousEdgesToAsyncOnlyKeys()
            if features.eagerSingletons { problems += synchronousEagerSingletonsNeedingAsyncEagerOnes() }
            if table.hasMainActorRegistrations { problems += mainActorNeedsOffTheMainActor() }
        }
        if features.mainActor && features.eagerSingletons { problems += eagerMainActorSingletons() }
        problems += missingModules()
        problems += teardownsWithoutSingletons()
        problems += assembly?.loadProblems ?? []
        if features.otherScopes { problems += unsupportedAsyncScopes() }
        if features.exclusive { problems += exclusiveViolations() }
        if !table.paths.isEmpty { problems += pathProblems() }
        return ValidationReport(problems: problems, warnings: table.parent == nil ? [] : overridesParentsDoNotSee())
    }

    /// The keys this child registry registers that a parent's shared registration (one whose instance the
    /// parent holds: ``AnyEntry/isHeldByItsTable``) declares as a dependency. The parent's instance is built
    /// from the parent's registrations, so it never sees this registry's: legal, but worth saying.
    /// One dictionary lookup per key and ancestor (a child made per request pays almost nothing); a parent's
    /// registration the child registers itself is not reported, since the child gets its own.
    private func overridesParentsDoNotSee() -> [RouteError] {
        var ancestors: [SealedTable] = []
        var cursor = table.parent
        while let ancestor = cursor {
            if !ancestor.sharedDependents.isEmpty { ancestors.append(ancestor) }
            cursor = ancestor.parent
        }
        guard !ancestors.isEmpty else { return [] }
        var warnings: [RouteError] = []
        for bucket in table.keys.indices {
            guard let registered = table.members(ofBucket: bucket).first else { continue }
            for ancestor in ancestors {
                for shared in ancestor.sharedDependents[table.keys[bucket]] ?? []
                where table.primary(shared.id, name: shared.key.name) === shared {
                    warnings.append(RouteError.overrideNotSeenByParent(registered, by: shared))
                }
            }
        }
        return warnings
    }

    private func duplicateIdentifiers() -> [RouteError] {
        var owners: [String: [AnyEntry]] = [:]
        var order: [String] = []
        for entry in table.entries {
            guard let identifier = entry.identifier else { continue }
            if owners[identifier] == nil { order.append(identifier) }
            owners[identifier, default: []].append(entry)
        }
        return order.compactMap { identifier in
            guard let entries = owners[identifier], entries.count > 1 else { return nil }
            return RouteError.duplicateIdentifier(identifier, registeredBy: entries)
        }
    }

    private func configurationMismatches() -> [RouteError] {
        table.entries.compactMap { entry in
            guard let conforms = entry.configurationConforms, !conforms() else { return nil }
            return RouteError.registeredConfigurationDoesNotConform(entry)
        }
    }

    private func ambiguousDefaults() -> [RouteError] {
        table.keys.indices.compactMap { bucket in
            let members = table.members(ofBucket: bucket)
            guard members.count > 1, let first = members.first else { return nil }
            let defaults = members.filter { $0.isDefault }
            guard defaults.count > 1 else { return nil }
            return RouteError.severalDefaults(defaults, of: first, filedUnderItsKey: table.keys[bucket] == first.id)
        }
    }

    /// A key registered twice by mistake (two modules registering it): registrations of one key (tag and
    /// name included) with the same argument types, none the default, not all marked
    /// ``Registration/oneOfMany()``, and no declared `many` dependency on the key. A key that some
    /// registration declares a single dependency on is left to ``declaredDependencyProblems()``, which
    /// already reports it as ambiguous.
    /// Two registered names of one protocol whose 64-bit hashes are equal: the table files them under one
    /// key, so one would shadow the other. Rare by chance, easy on purpose; either way, a rename fixes it.
    private func collidingNames() -> [RouteError] {
        var problems: [RouteError] = []
        for bucket in table.keys.indices {
            let members = table.members(ofBucket: bucket)
            guard members.count > 1, case .name = table.keys[bucket].qualifier else { continue }
            var texts: [String] = []
            for member in members {
                if let name = member.key.name, !texts.contains(name) { texts.append(name) }
            }
            guard texts.count > 1, let first = members.first else { continue }
            problems.append(RouteError.namesWithTheSameHash(texts, of: first))
        }
        return problems
    }

    private func accidentalDuplicates() -> [RouteError] {
        var usedAsMany: Set<KeyID> = []
        var usedAsOne: Set<KeyID> = []
        for entry in table.allEntriesInChain {
            for dependency in entry.dependencies {
                if dependency.kind == .many {
                    usedAsMany.insert(dependency.id)
                } else {
                    usedAsOne.insert(dependency.id)
                }
            }
        }
        var problems: [RouteError] = []
        for bucket in table.keys.indices {
            let members = table.members(ofBucket: bucket)
            guard members.count > 1, let first = members.first, !usedAsMany.contains(first.id),
                !usedAsOne.contains(first.id)
            else { continue }
            // Grouped by argument types: a key may be registered once per argument list.
            // And by name text: names whose hashes collide are `collidingNames`' problem, not a duplicate.
            var groups: [(types: ObjectIdentifier?, name: String?, members: [AnyEntry])] = []
            for member in members {
                let types = member.argumentTypes.map(ObjectIdentifier.init)
                if let index = groups.firstIndex(where: { $0.types == types && $0.name == member.key.name }) {
                    groups[index].members.append(member)
                } else {
                    groups.append((types, member.key.name, [member]))
                }
            }
            for group in groups where group.members.count > 1 {
                let sameKey = group.members
                guard !sameKey.contains(where: \.isDefault), !sameKey.allSatisfy(\.isOneOfMany) else { continue }
                problems.append(RouteError.registeredByMistake(sameKey, key: first))
            }
        }
        return problems
    }

    private func declaredDependencyProblems() -> [RouteError] {
        var problems: [RouteError] = []
        for entry in table.entries {
            for dependency in entry.dependencies where dependency.kind != .many {
                let candidates = table.allEntries(for: dependency.id, name: dependency.key.name)
                if candidates.isEmpty, let target = entry.adapterTarget {
                    problems.append(RouteError.adapterWithoutTarget(entry, target: target))
                } else if candidates.isEmpty && dependency.isOptional {
                    continue  // it does without: nothing to check
                } else if candidates.isEmpty {
                    problems.append(RouteError.missingDependency(entry, dependency))
                } else if dependency.isLookedUpWithoutArguments,
                    !candidates.contains(where: { $0.argumentTypes == nil })
                {
                    problems.append(RouteError.dependencyTakesArguments(entry, dependency, candidates))
                } else if table.primary(dependency.id, name: dependency.key.name) == nil {
                    problems.append(RouteError.ambiguousDependency(entry, dependency, candidates))
                }
            }
        }
        return problems
    }

    /// Cycles made only of declared initializer edges (and `many` edges, which build every registration
    /// of their key in the initializer too): no order of construction can build them.
    ///
    /// A depth-first search with an explicit stack, so a declared chain of any length is checked without
    /// recursion proportional to its depth.
    private func initializerCycles() -> [RouteError] {
        var problems: [RouteError] = []
        var reported: Set<[ObjectIdentifier]> = []
        var state: [ObjectIdentifier: Int] = [:]  // 1 visiting, 2 done
        /// Where each registration being visited sits in `path`.
        var position: [ObjectIdentifier: Int] = [:]
        var path: [AnyEntry] = []
        /// For each registration in `path`, what it reaches at construction and how far it has got.
        var pending: [(targets: [AnyEntry], next: Int)] = []

        func constructionTargets(of entry: AnyEntry) -> [AnyEntry] {
            var targets: [AnyEntry] = []
            for dependency in entry.dependencies {
                switch dependency.kind {
                case .initializer:
                    if let next = table.primary(dependency.id, name: dependency.key.name) { targets.append(next) }
                case .many:
                    targets += table.allEntries(for: dependency.id, name: dependency.key.name)
                case .property, .lazy:
                    continue
                }
            }
            return targets
        }

        func push(_ entry: AnyEntry) {
            let id = ObjectIdentifier(entry)
            state[id] = 1
            position[id] = path.count
            path.append(entry)
            pending.append((constructionTargets(of: entry), 0))
        }

        func report(cycleFrom start: Int, closedBy next: AnyEntry) {
            let members = Array(path[start...])
            let ids = members.map { ObjectIdentifier($0) }
            let rotation = ids.indices.min { ids[$0].hashValue < ids[$1].hashValue } ?? 0
            let canonical = Array(ids[rotation...] + ids[..<rotation])
            guard reported.insert(canonical).inserted else { return }
            let names = members.map { $0.key.short } + [next.key.short]
            problems.append(RouteError.initializerCycle(names, closedBy: next))
        }

        func visit(_ root: AnyEntry) {
            push(root)
            while let top = pending.last {
                guard top.next < top.targets.count else {
                    let done = ObjectIdentifier(path.removeLast())
                    pending.removeLast()
                    state[done] = 2
                    position[done] = nil
                    continue
                }
                let next = top.targets[top.next]
                pending[pending.count - 1].next += 1
                let nextID = ObjectIdentifier(next)
                if state[nextID] == 1, let start = position[nextID] {
                    report(cycleFrom: start, closedBy: next)
                } else if state[nextID] == nil {
                    push(next)
                }
            }
        }

        // A registration with no initializer or many dependency closes no cycle and leads nowhere: starting
        // from one would only mark it visited.
        for entry in table.entries
        where entry.dependencies.contains(where: { $0.kind == .initializer || $0.kind == .many })
            && state[ObjectIdentifier(entry)] == nil
        {
            visit(entry)
        }
        return problems
    }

    /// A longer-lived instance that depends on a graph-, request- or custom-scoped one (or on a key each
    /// request scope supplies) would keep a stale copy.
    private func captiveDependencies() -> [RouteError] {
        var problems: [RouteError] = []
        for entry in table.entries where entry.scope.isShared {
            for dependency in entry.dependencies where dependency.kind == .initializer || dependency.kind == .property {
                guard let target = table.primary(dependency.id, name: dependency.key.name) else { continue }
                let kind = target.scope.kind
                guard kind == .graph || kind == .custom || target.scope.isPerRequest,
                    target.scope.lifetimeRank < entry.scope.lifetimeRank
                else {
                    continue
                }
                problems.append(RouteError.captiveDependency(entry, on: target))
            }
        }
        return problems
    }

    /// Main-actor registrations that are eager singletons: sealing would build them off the main actor (it
    /// is reported on every platform, so that an app does not seal on Apple's main thread and fail on Linux).
    private func eagerMainActorSingletons() -> [RouteError] {
        table.entries.filter { $0.isMainActor && $0.scope.kind == .eagerSingleton }.map(RouteError.eagerOnTheMainActor)
    }

    /// An eager singleton (built while sealing, off the main actor) that needs a main-actor registration
    /// built with it, directly or through registrations built in the same lookup: that lookup can never
    /// succeed. (An async factory is no such registration: it runs on its lookup's executor, which is the
    /// main actor when main-actor code makes the lookup.)
    ///
    /// A need is an initializer, property or many edge; a lazy edge is not one (its `Lazy` or `Provider` can
    /// be read on the main actor later). The walk goes on through every registration that is not main-actor
    /// (nothing is built before sealing), with an explicit stack, so a declared chain of any length is
    /// checked without deep recursion.
    private func mainActorNeedsOffTheMainActor() -> [RouteError] {
        var problems: [RouteError] = []
        for dependent in table.entries where !dependent.isMainActor && !dependent.dependencies.isEmpty {
            guard dependent.scope.kind == .eagerSingleton else { continue }
            var reported: Set<String> = []
            var visited: Set<ObjectIdentifier> = [ObjectIdentifier(dependent)]
            // Each registration still to look at, with the path that reached it from `dependent`.
            var stack: [(entry: AnyEntry, path: [AnyEntry])] = [(dependent, [dependent])]
            while let (entry, path) = stack.popLast() {
                for target in Self.constructionTargets(of: entry, in: table).reversed()
                where visited.insert(ObjectIdentifier(target)).inserted {
                    if target.isMainActor {
                        guard reported.insert(target.key.full).inserted else { continue }
                        problems.append(.builtOffTheMainActor(dependent, needs: target, path: path))
                    } else {
                        stack.append((target, path + [target]))
                    }
                }
            }
        }
        return problems
    }

    /// The registrations a lookup builds together with `entry`: those its initializer, property and many
    /// edges reach (not its lazy ones).
    private static func constructionTargets(of entry: AnyEntry, in table: SealedTable) -> [AnyEntry] {
        var targets: [AnyEntry] = []
        for dependency in entry.dependencies {
            switch dependency.kind {
            case .initializer, .property:
                if let next = table.primary(dependency.id, name: dependency.key.name) { targets.append(next) }
            case .many:
                targets += table.allEntries(for: dependency.id, name: dependency.key.name)
            case .lazy:
                continue
            }
        }
        return targets
    }

    private func pathProblems() -> [RouteError] {
        var problems: [RouteError] = []
        var seen: [[String]: PathRoute] = [:]
        for route in table.paths {
            let pattern = route.pattern
            for problem in pattern.problems {
                problems.append(RouteError.pathPatternProblem(pattern, problem))
            }
            if let first = seen[pattern.shape] {
                if first.pattern.text == pattern.text {
                    problems.append(RouteError.pathPatternRegisteredTwice(first, route))
                } else {
                    problems.append(RouteError.pathPatternsMatchTheSamePaths(first, route))
                }
            } else {
                seen[pattern.shape] = route
            }
            if !table.hasRegistration(route.targetID, name: route.target.name) {
                problems.append(RouteError.pathTargetUnregistered(route))
            }
        }
        return problems
    }

    private func exclusiveViolations() -> [RouteError] {
        var problems: [RouteError] = []
        for exclusive in table.entries where exclusive.isExclusive {
            let others = table.entries.filter {
                $0 !== exclusive && $0.id.type == exclusive.id.type && $0.id.kind == exclusive.id.kind
            }
            guard !others.isEmpty else { continue }
            problems.append(RouteError.notExclusive(exclusive, alsoServedBy: others))
        }
        return problems
    }

    private func unsupportedAsyncScopes() -> [RouteError] {
        table.entries.compactMap { entry in
            guard ![.transient, .graph, .singleton, .eagerSingleton, .request].contains(entry.scope.kind), entry.isAsync
            else {
                return nil
            }
            return RouteError.unsupportedAsyncScope(entry)
        }
    }

    /// A synchronous factory or preparation that declares an edge to a key with only an async factory:
    /// every lookup of it would fail with `asyncOnly` (synchronous code cannot await the build), unless the
    /// key is an eager singleton, which `warmUp()` builds at start-up.
    private func synchronousEdgesToAsyncOnlyKeys() -> [RouteError] {
        var problems: [RouteError] = []
        for entry in table.entries where !entry.isAsync {
            for dependency in entry.dependencies where dependency.kind == .initializer || dependency.kind == .property {
                guard let target = table.primary(dependency.id, name: dependency.key.name), target.isAsync,
                    target.scope.kind != .eagerSingleton
                else { continue }
                problems.append(RouteError.synchronousEdgeToAsyncOnly(entry, dependency, to: target))
            }
        }
        return problems
    }

    /// A synchronous eager singleton that needs an async eager singleton of this registry, directly or
    /// through synchronous registrations built in the same lookup: `seal()` builds the synchronous one, and
    /// only `warmUp()`, after it, builds the async one, so sealing would fail with `asyncOnly`. (An edge to
    /// an async key that is not an eager singleton is reported by `synchronousEdgesToAsyncOnlyKeys`; one to
    /// a parent registry's is not, since the parent may have built it already.)
    private func synchronousEagerSingletonsNeedingAsyncEagerOnes() -> [RouteError] {
        var problems: [RouteError] = []
        let own = Set(table.entries.map(ObjectIdentifier.init))
        for dependent in table.entries
        where dependent.scope.kind == .eagerSingleton && !dependent.isAsync && !dependent.dependencies.isEmpty {
            var visited: Set<ObjectIdentifier> = [ObjectIdentifier(dependent)]
            var stack: [(entry: AnyEntry, path: [AnyEntry])] = [(dependent, [dependent])]
            while let (entry, path) = stack.popLast() {
                for target in Self.constructionTargets(of: entry, in: table).reversed()
                where visited.insert(ObjectIdentifier(target)).inserted {
                    guard target.isAsync else {
                        stack.append((target, path + [target]))
                        continue
                    }
                    guard target.scope.kind == .eagerSingleton, own.contains(ObjectIdentifier(target)) else { continue }
                    problems.append(RouteError.synchronousEagerNeedsAsyncEager(dependent, needs: target, path: path))
                }
            }
        }
        return problems
    }

    /// A teardown declared on a registration that is not a singleton or an eager singleton: `shutdown()`
    /// tears down only the instance a singleton cell holds, so it would never run, silently.
    private func teardownsWithoutSingletons() -> [RouteError] {
        guard let assembly, !assembly.teardowns.isEmpty else { return [] }
        return assembly.teardowns.sorted().compactMap { order in
            let entry = assembly.entries[order]
            guard entry.scope.kind != .singleton && entry.scope.kind != .eagerSingleton else { return nil }
            return RouteError.teardownWithoutSingleton(entry)
        }
    }

    private func missingModules() -> [RouteError] {
        guard let assembly else { return [] }
        return assembly.requirements.compactMap { requirement in
            if assembly.loadedModules.contains(ObjectIdentifier(requirement.required)) { return nil }
            return RouteError.requiredModuleNotLoaded(requirement.module, requires: requirement.required)
        }
    }
}

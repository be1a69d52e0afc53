public import Router

/// Every problem ``Router/RouteRegistry/verifyByMaking(supplying:)`` found, in one list: each registration
/// that could not be made, and each lookup a registration made without declaring it, with the place of the
/// registering call.
public struct VerificationReport: Error, Sendable, CustomStringConvertible {
    /// One problem, as a ``Router/RouteError`` whose key is the registration's.
    public struct Problem: Sendable, CustomStringConvertible {
        /// The registration's key, e.g. `RoutableService<HomeViewModel>`.
        public let key: String
        /// The file of the registering call, as `#fileID` gave it.
        public let file: String
        /// The line of the registering call.
        public let line: Int
        /// What is wrong and what to do: ``Router/RouteError/Code/undeclaredDependency`` for an edge taken
        /// without being declared, ``Router/RouteError/Code/teardownFailed`` for a singleton made for it
        /// whose teardown threw, else the error that kept the registration from being made.
        public let error: RouteError

        /// Where the registration was made: `HomeModule (App/Home.swift:12)`.
        public let site: String

        /// The problem on one line, naming the registration and where it was made.
        public var description: String {
            // An undeclared edge's error names the registration and its site itself.
            if error.code == .undeclaredDependency { return error.description }
            if error.code == .teardownFailed {
                return "\(key) from \(site) was made, and its teardown failed: \(error)"
            }
            return "\(key) from \(site) could not be made: \(error)"
        }
    }

    /// The problems, in registration order.
    public let problems: [Problem]
    /// What making each registration did, including the edges each one's lookups took.
    public let trials: [RegistrationTrial]

    /// Whether nothing was found.
    public var isValid: Bool { problems.isEmpty }

    /// One line per problem, or "No problems found." when there are none.
    public var description: String {
        if problems.isEmpty { return "No problems found." }
        let noun = problems.count == 1 ? "problem" : "problems"
        return "verifyByMaking() found \(problems.count) \(noun):\n"
            + problems.map { "- \($0)" }.joined(separator: "\n")
    }

    init(trials: [RegistrationTrial]) {
        self.trials = trials
        var problems: [Problem] = []
        for trial in trials {
            for error in trial.problems {
                problems.append(
                    Problem(key: trial.key, file: trial.file, line: trial.line, error: error, site: trial.site))
            }
        }
        self.problems = problems
    }
}

extension RouteRegistry {
    /// Makes every registration once and fails with one list of every problem: each registration that
    /// could not be made, and each lookup a registration made without declaring it (an `@Injected`
    /// property, an `r.resolve` in a closure factory or a preparation), each with the file and line of the
    /// registering call. What ``Router/RouteRegistry/validate()`` cannot see, because it reads only what
    /// registrations declare.
    ///
    /// ```swift
    /// @Test func everyRegistrationIsMadeAndDeclaresWhatItUses() async throws {
    ///     let registry = try RouteRegistry(modules: AppModules.all)
    ///     var inputs = RegistrationInputs()
    ///     inputs.arguments(for: .bookDetail, 3)
    ///     inputs.supply(RequestContext(user: "ann"), for: .requestContext)
    ///     try await registry.verifyByMaking(supplying: inputs)
    /// }
    /// ```
    ///
    /// It runs ``Router/RouteRegistry/makeEachRegistration(supplying:)``, which says in full how each
    /// registration is made:
    ///
    /// - Through the registry's own door: a main-actor one on the main actor, whatever the test's isolation,
    ///   an async one awaited.
    /// - Each in a request scope of its own, so that a server's request-scoped registrations are made; a
    ///   supplied key reads the value given with ``Router/RegistrationInputs/supply(_:for:)``, and without one
    ///   it and every registration made from it are reported as ``Router/RouteError/Code/notSupplied``.
    /// - In a throwaway layer: the registry's own singletons are neither used nor torn down; those built
    ///   anew for the run are torn down when it ends, as ``Router/RouteRegistry/shutdown()-32uys`` would (a
    ///   teardown that throws is reported as ``Router/RouteError/Code/teardownFailed``), and the registry's
    ///   own shutdown never sees them.
    ///
    /// Registrations that take runtime arguments need them in `inputs`, or are reported as not made.
    /// - Parameter inputs: The arguments, module configurations and supplied values the registrations need.
    /// - Returns: The report, when it found nothing; its trials hold the edges each registration took.
    /// - Throws: The ``VerificationReport`` when it found a problem; ``Router/RouteError`` before making
    ///   anything when the registry is not sealed, was shut down (it or a parent: ``Router/RouteError/Code/shutDown``,
    ///   since a registry that was shut down makes nothing), or `inputs` supplies a value for a key that is not
    ///   declared as supplied.
    @discardableResult
    public nonisolated(nonsending) func verifyByMaking(
        supplying inputs: RegistrationInputs = RegistrationInputs()
    ) async throws -> VerificationReport {
        let report = VerificationReport(trials: try await makeEachRegistration(supplying: inputs))
        guard report.isValid else { throw report }
        return report
    }
}

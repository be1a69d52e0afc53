import Router
import Testing

// How messages name module keys, optional edges and path parameters: each one says what the reader needs
// to act, in its exact words.
struct MessageWordingTests {
    func greeterRegistry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
                GreeterImpl(greeting: "Hello, \(config.name ?? "you")")
            }
            try registry.register(path: "greet/:name", to: .greeter) { config, parameters in
                config.constructGreeter(name: try parameters.string("name"))
            }
            try registry.register(.engine) { _ in V8() }
            try registry.register(path: "engines/:id(Int)", to: .engine)
            try registry.register(path: "named/:id", to: .engine) { _, parameters in _ = try parameters.int("id") }
            try registry.register(path: "paged", to: .engine) { _, parameters in _ = try parameters.int("page") }
        }
    }

    @Test func aModuleKeyNamesTheDestinationItMakes() {
        #expect(RoutableServiceModule.greeter.description == "RoutableServiceModule<GreeterModuleConfig, Greeter>")
    }

    @Test func aModuleInTheGraphReadsAsWhatItMakesViaItsConfiguration() throws {
        let graph = try greeterRegistry().dependencyGraph()
        #expect(graph.nodes.first?.name == "Greeter via GreeterModuleConfig")
        #expect(graph.nodes.first?.key == "RoutableServiceModule<GreeterModuleConfig, Greeter>")
        #expect(graph.textTree.contains("greet/:name → Greeter via GreeterModuleConfig (transient, RouteRegistry)"))
    }

    @Test func aPathAskedForAsTheWrongTypeSaysWhichTypeItsModuleMakes() throws {
        let error = #expect(throws: RouteError.self) {
            try greeterRegistry().makeDestination(path: "greet/ann", as: (any Engine).self)
        }
        #expect(error?.code == .destinationTypeMismatch)
        #expect(
            error?.hint
                == "The pattern \"greet/:name\" routes to RoutableServiceModule<GreeterModuleConfig, Greeter>; ask for the type it makes, Greeter."
        )
    }

    @Test func aPathAskedForAsTheWrongTypeSaysWhichTypeItsServiceMakes() throws {
        let error = #expect(throws: RouteError.self) {
            try greeterRegistry().makeDestination(path: "engines/3", as: (any Greeter).self)
        }
        #expect(
            error?.hint
                == "The pattern \"engines/:id(Int)\" routes to RoutableService<Engine>; ask for the type it makes, Engine."
        )
    }

    @Test func anIdentifierAskedForAsTheConfigurationSaysWhichTypeItsModuleMakes() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.greeter, configuration: GreeterConfiguration.init) { config, _ in
                GreeterImpl(greeting: "Hello, \(config.name ?? "you")")
            }.identifier("greeter")
        }
        // Asked for the configuration protocol the key is written with: the hint names the type it makes.
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: "greeter", as: (any GreeterModuleConfig).self)
        }
        #expect(error?.code == .destinationTypeMismatch)
        #expect(
            error?.hint
                == "It is registered as RoutableServiceModule<GreeterModuleConfig, Greeter>; ask for the type it makes, Greeter."
        )
        #expect(try registry.makeDestination(identifier: "greeter", as: (any Greeter).self).greeting == "Hello, you")
    }

    @Test func anOptionalDependencyWithNoRouterIsShownAsOptional() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in V8() }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }
                .dependencies(.initializer(.engine), .initializer(.radio).optional)
        }
        let graph = try registry.dependencyGraph()
        #expect(
            graph.textTree == """
                Car (transient, RouteRegistry)
                ├─ initializer → Engine (transient, RouteRegistry)
                └─ initializer → RoutableService<Radio> (optional, no router)

                """)
        #expect(graph.dot.contains("[label=\"RoutableService<Radio>\\noptional, no router\", color=gray];"))
    }

    @Test func aRequiredDependencyWithNoRouterIsShownAsMissing() throws {
        let registry = RouteRegistry()
        try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine)) }.dependencies(.initializer(.engine))
        let graph = try registry.dependencyGraph()
        #expect(graph.textTree.contains("└─ initializer → RoutableService<Engine> (no router)\n"))
        #expect(graph.dot.contains("[label=\"RoutableService<Engine>\\nno router\", color=red];"))
    }

    @Test func aMalformedPathParameterShowsAPathThatFits() throws {
        let error = #expect(throws: RouteError.self) {
            try greeterRegistry().makeDestination(path: "engines/abc", as: (any Engine).self)
        }
        #expect(
            error?.description
                == "The path \"engines/abc\" fits the pattern \"engines/:id(Int)\", but the parameter id is \"abc\", which is not an Int. Hint: Give the parameter id as an Int, as in \"engines/1\"."
        )
    }

    @Test func aMissingPathParameterShowsAPathThatFits() throws {
        let error = #expect(throws: RouteError.self) {
            try greeterRegistry().makeDestination(path: "greet", as: (any Greeter).self)
        }
        #expect(
            error?.description
                == "The path \"greet\" fits the pattern \"greet/:name\", but the parameter name is missing. Hint: Give the parameter name as text, as in \"greet/name\"."
        )
    }

    @Test func aTextParameterReadAsANumberSuggestsTypingItInThePattern() throws {
        let error = #expect(throws: RouteError.self) {
            try greeterRegistry().makeDestination(path: "named/abc", as: (any Engine).self)
        }
        #expect(
            error?.description
                == "The parameter id of the path \"named/abc\" is \"abc\", which is not an Int. Hint: Type the parameter in the pattern, \"named/:id(Int)\", so that only paths with an Int there match it."
        )
    }

    @Test func aMalformedQueryParameterSaysWhatToGive() throws {
        let error = #expect(throws: RouteError.self) {
            try greeterRegistry().makeDestination(path: "paged?page=two", as: (any Engine).self)
        }
        #expect(
            error?.description
                == "The parameter page of the path \"paged?page=two\" is \"two\", which is not an Int. Hint: Give page as an Int, e.g. ?page=1."
        )
    }
}

// The services of this module are generated at build time by the GenerateBenchmarkSources plugin
// (Benchmarks/Plugins), from Benchmarks/Sources/ServiceGenerator. Nothing here is written by hand.

import Router

// The article's examples take an engine and a radio for granted.
// include: CarParts

import Router

// The parts the article's examples take for granted: an engine, a radio, wheels and a car.
// include: CarParts

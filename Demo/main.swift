print("Router demo")

"""interpreter/runtime"""

"""interpreter/python"""

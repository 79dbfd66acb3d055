"""interpreter/apps"""

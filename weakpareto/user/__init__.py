"""user"""

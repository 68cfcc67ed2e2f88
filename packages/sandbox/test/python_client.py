"""Drive the sandbox ERP with Python's own xmlrpc.client, exactly as Odoo's documentation does.

Usage: python3 python_client.py URL DB LOGIN KEY
Prints one JSON object with what each call returned; tests/sandbox/python-client.test.ts checks it.
Standard library only.
"""

import json
import sys
import xmlrpc.client


def fault_of(call):
    """Run a call expected to fail and return its fault as [faultCode, faultString]."""
    try:
        call()
    except xmlrpc.client.Fault as fault:
        return [fault.faultCode, fault.faultString]
    return None


def main():
    url, db, login, key = sys.argv[1:5]
    wrong_key = "0" * 40

    common = xmlrpc.client.ServerProxy(f"{url}/xmlrpc/2/common")
    version = common.version()
    uid = common.authenticate(db, login, key, {})
    wrong_uid = common.authenticate(db, login, wrong_key, {})

    models = xmlrpc.client.ServerProxy(f"{url}/xmlrpc/2/object")
    vehicles = models.execute_kw(
        db, uid, key, 'fleet.vehicle', 'search_read',
        [[['active', '=', True]]],
        {'fields': ['license_plate', 'driver_id'], 'order': 'license_plate', 'limit': 5},
    )
    count = models.execute_kw(db, uid, key, 'fleet.vehicle', 'search_count', [[['active', '=', True]]])
    first_id = vehicles[0]['id'] if vehicles else 0
    read = models.execute_kw(db, uid, key, 'fleet.vehicle', 'read', [[first_id]], {'fields': ['license_plate']})

    faults = {
        'access_denied': fault_of(lambda: models.execute_kw(db, uid, wrong_key, 'fleet.vehicle', 'search_count', [[]])),
        'unknown_model': fault_of(lambda: models.execute_kw(db, uid, key, 'no.such.model', 'search_count', [[]])),
        'private_method': fault_of(lambda: models.execute_kw(db, uid, key, 'fleet.vehicle', '_read', [[first_id]])),
        'unknown_method': fault_of(lambda: models.execute_kw(db, uid, key, 'fleet.vehicle', 'frobnicate', [])),
    }

    print(json.dumps({
        'version': version,
        'uid': uid,
        'wrong_uid': wrong_uid,
        'vehicles': vehicles,
        'count': count,
        'read': read,
        'faults': faults,
    }))


if __name__ == '__main__':
    main()
